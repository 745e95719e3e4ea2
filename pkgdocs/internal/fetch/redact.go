package fetch

import (
	"errors"
	"net/url"
)

// redacted is u as errors and answers show it: without its user
// information. url.URL.Redacted hides only the password, but a URL's user
// name is often a token itself (https://TOKEN@goproxy.example.com, or
// TOKEN: with an empty password as some private indexes want).
func redacted(u *url.URL) string {
	if u.User == nil {
		return u.String()
	}
	c := *u
	c.User = nil
	return c.String()
}

// redactedString is redacted for a URL in text form; text that does not
// parse as a URL is returned as it is.
func redactedString(s string) string {
	u, err := url.Parse(s)
	if err == nil {
		return redacted(u)
	}
	return s
}

// withoutUserInfo removes the user information from the URL of a
// *url.Error in err, which net/http reports with the user name (it hides
// only the password), and returns err.
func withoutUserInfo(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = redactedString(ue.URL)
	}
	return err
}
