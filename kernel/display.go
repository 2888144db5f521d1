package kernel

import "github.com/janpfeifer/gonb/gonbui"

// Display is where rich output goes. In a notebook it is the GoNB front end
// ([GoNB]); a nil Display means "not in a notebook": output is printed or
// written to files instead. Tests plug in their own Display to capture what
// a notebook would show.
type Display interface {
	// HTML shows an HTML fragment as a new output.
	HTML(html string)
	// Markdown shows Markdown as a new output.
	Markdown(md string)
	// PNG shows a PNG image as a new output.
	PNG(png []byte)
	// SVG shows an SVG image as a new output.
	SVG(svg string)
	// UpdateHTML creates, or replaces the contents of, the output block
	// with the given id (a transient block, e.g. a progress bar).
	UpdateHTML(id, html string)
}

// GoNB returns the Display of the GoNB kernel when the program runs inside
// GoNB, and nil otherwise.
func GoNB() Display {
	if !gonbui.IsNotebook {
		return nil
	}
	return gonbDisplay{}
}

// gonbDisplay sends output to the notebook through gonbui.
type gonbDisplay struct{}

func (gonbDisplay) HTML(h string)           { gonbui.DisplayHTML(h) }
func (gonbDisplay) Markdown(md string)      { gonbui.DisplayMarkdown(md) }
func (gonbDisplay) PNG(b []byte)            { gonbui.DisplayPNG(b) }
func (gonbDisplay) SVG(s string)            { gonbui.DisplaySVG(s) }
func (gonbDisplay) UpdateHTML(id, h string) { gonbui.UpdateHTML(id, h) }
