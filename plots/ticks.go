package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceTicks places about five labelled ticks at round values (steps of 1,
// 2, 2.5 or 5 times a power of ten) with a minor tick between each pair,
// labelled with as few decimals as the step needs ("250", not "250.00").
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if math.IsNaN(min) || math.IsNaN(max) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: strconv.FormatFloat(min, 'g', 4, 64)}}
	}
	// The round step nearest (in ratio) to a fifth of the range.
	raw := (max - min) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step, best := mag, math.Inf(1)
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if d := math.Abs(math.Log(m * mag / raw)); d < best {
			step, best = m*mag, d
		}
	}
	decimals := 0
	if d := -math.Floor(math.Log10(step) + 1e-9); d > 0 {
		decimals = int(d)
	}
	if s := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9)); math.Abs(s-2.5) < 1e-9 && step < 10 {
		decimals++
	}
	var ticks []plot.Tick
	start := math.Ceil(min/step-1e-9) * step
	for v := start; v <= max+step*1e-9; v += step {
		x := math.Round(v/step) * step
		if math.Abs(x) < step*1e-9 {
			x = 0
		}
		ticks = append(ticks, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', decimals, 64)})
		if mid := x + step/2; mid <= max {
			ticks = append(ticks, plot.Tick{Value: mid})
		}
	}
	if m := start - step/2; m >= min {
		ticks = append(ticks, plot.Tick{Value: m})
	}
	return ticks
}
