package plots_test

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png"
	"log"

	"github.com/roleprint/roleprint/plots"
)

// Draw a figure: Table 2's AUC of two encoders per level, mean ± std over
// rounds, exported as a PNG one paper column wide at 300 DPI (SaveAll
// writes PNG, SVG and PDF files at once).
func ExampleNewBars() {
	bars, err := plots.NewBars(plots.BarTable{
		Groups: []string{"Base", "Hard", "Harder"},
		Series: []string{"tfidf", "ngram-metric_ft"},
		Y:      [][]float64{{80.7, 61.5, 55.2}, {97.9, 67.8, 58.0}},
		Err:    [][]float64{{3.4, 1.0, 0.8}, {0.1, 0.9, 1.1}},
	})
	if err != nil {
		log.Fatal(err)
	}
	bars.YLabel = "AUC (%)"
	png, err := plots.Bytes(bars, plots.PNG, plots.ColumnSize())
	if err != nil {
		log.Fatal(err)
	}
	img, format, err := image.DecodeConfig(bytes.NewReader(png))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s, %d × %d pixels\n", format, img.Width, img.Height)
	// Output:
	// png, 1050 × 750 pixels
}
