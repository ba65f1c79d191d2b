package multiplex

// auto leaves batching to the client library's own auto-pipelining (rueidis
// in its default mode, go-redis Client.AutoPipeline): it asks every master at
// once like FanOut, and the nodes, dialed in auto-pipelining mode, coalesce
// the concurrent commands of all lockers into shared pipelines per master.
// The strategy is the same code as FanOut on purpose: the difference measured
// between the two cells is the client's batching and nothing else.
type auto struct{ FanOut }

var _ Strategy = (*auto)(nil)

func init() {
	Register("auto", func(nodes []Node, _ Options) (Strategy, error) { return newAuto(nodes), nil })
}

// newAuto builds an Auto strategy over nodes dialed in auto-pipelining mode.
func newAuto(nodes []Node) *auto { return &auto{FanOut{nodes: nodes}} }
