package judge

import (
	"context"
	"fmt"
	"sort"
)

// RespondAll has agent answer every item with the last k turns before its
// target as context, and returns the VoxRole instances (response beside
// the reference line) in item order.
func RespondAll(ctx context.Context, agent Agent, items []AblationItem, k int) ([]VRInstance, error) {
	out := make([]VRInstance, 0, len(items))
	for _, it := range items {
		turns := it.History[max(0, len(it.History)-k):]
		resp, err := agent.Respond(ctx, it, turns)
		if err != nil {
			return nil, fmt.Errorf("respond: item %q: %w", it.ID, err)
		}
		out = append(out, VRInstance{ID: it.ID, Role: it.Role, Persona: it.Persona, Context: turns, Response: resp, Reference: it.Reference})
	}
	return out, nil
}

// ResponsesAndReferences returns the instances' responses and reference
// lines, in order (the candidates and references of text metrics).
func ResponsesAndReferences(insts []VRInstance) (responses, references []string) {
	for _, in := range insts {
		responses, references = append(responses, in.Response), append(references, in.Reference)
	}
	return responses, references
}

// TableRow returns the result as one table row: columns "system",
// "judge", "n", the dimensions (sorted) and "overall", and the values.
func (r *VRSystemResult) TableRow() (columns []string, row []any) {
	var dims []string
	for d := range r.Scores {
		dims = append(dims, d)
	}
	sort.Strings(dims)
	columns = append(append([]string{"system", "judge", "n"}, dims...), "overall")
	row = []any{r.System, r.Judge, r.N}
	for _, d := range dims {
		row = append(row, r.Scores[d])
	}
	return columns, append(row, r.Overall)
}
