package multiplex

// Auto leaves batching to the client library's own auto-pipelining (rueidis
// in its default mode, go-redis Client.AutoPipeline): it asks every master at
// once like FanOut, and the nodes, dialed in auto-pipelining mode, coalesce
// the concurrent commands of all lockers into shared pipelines per master.
// The strategy is the same code as FanOut on purpose: the difference measured
// between the two cells is the client's batching and nothing else.
type Auto struct{ FanOut }

var _ Strategy = (*Auto)(nil)

func init() {
	Register("auto", func(nodes []Node, _ Options) (Strategy, error) { return NewAuto(nodes), nil })
}

// NewAuto builds an Auto strategy over nodes dialed in auto-pipelining mode.
func NewAuto(nodes []Node) *Auto { return &Auto{FanOut{nodes: nodes}} }
