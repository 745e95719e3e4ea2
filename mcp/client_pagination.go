package mcp

import (
	"context"
	"iter"
)

// paginate walks a paginated list method. setCursor is done on a copy of
// the caller's params.
func paginate[P any, R any, T any](ctx context.Context, params *P, list func(context.Context, *P) (*R, error), items func(*R) ([]T, string)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		p := cloneParams(params)
		for {
			res, err := list(ctx, p)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			page, next := items(res)
			for _, item := range page {
				if !yield(item, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			setCursor(p, next)
		}
	}
}
