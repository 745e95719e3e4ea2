package main

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
)

// pngImage is a 1×1 red PNG, the image of every image fixture.
var pngImage = func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // encoding a fixed in-memory image cannot fail
	}
	return b.Bytes()
}()

// wavAudio is a short RIFF/WAVE file: 8 kHz, 16-bit mono, 100 samples of
// silence.
var wavAudio = func() []byte {
	const (
		rate     = 8000
		bits     = 16
		channels = 1
		samples  = 100
	)
	dataLen := samples * channels * bits / 8
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + dataLen))
	b.WriteString("WAVEfmt ")
	w(uint32(16))                         // fmt chunk size
	w(uint16(1))                          // PCM
	w(uint16(channels))                   // channels
	w(uint32(rate))                       // sample rate
	w(uint32(rate * channels * bits / 8)) // byte rate
	w(uint16(channels * bits / 8))        // block align
	w(uint16(bits))                       // bits per sample
	b.WriteString("data")
	w(uint32(dataLen))
	b.Write(make([]byte, dataLen))
	return b.Bytes()
}()
