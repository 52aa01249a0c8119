package engine

import "math/bits"

// catIndex lists the live bodies by category, so that a query whose filter
// few bodies pass (Nearest over one team among thousands of bodies) visits
// those bodies instead of every body around it. A body whose category is a
// single bit sits in that bit's list; a body of several bits sits in multi.
// Lists are unordered, with O(1) removal by swapping in the last entry.
//
// The index costs 8 bytes a body and serves Nearest alone, with a filter
// that leaves out some categories: a world keeps none (on is false, and
// the methods below but build do nothing) until the first such query,
// which builds it (see World.categoryIndex).
type catIndex struct {
	lists *[32][]int32 // allocated at the first single-bit body: an empty world is small
	multi []int32
	pos   []int32 // pos[slot] is the slot's index in its list
	on    bool    // the index is kept
}

func (c *catIndex) grow() {
	if c.on {
		c.pos = append(c.pos, 0)
	}
}

// build starts keeping the index, of the live bodies of b.
func (c *catIndex) build(b *bodies) {
	*c = catIndex{pos: make([]int32, len(b.hot)), on: true}
	for s := range int32(len(b.hot)) {
		if b.hot[s].flags&flagAlive != 0 {
			c.add(s, b.filter[s].cat)
		}
	}
}

// list returns the list a body of category cat belongs in.
func (c *catIndex) list(cat uint32) *[]int32 {
	if cat&(cat-1) == 0 {
		if c.lists == nil {
			c.lists = new([32][]int32)
		}
		return &c.lists[bits.TrailingZeros32(cat)]
	}
	return &c.multi
}

func (c *catIndex) add(s int32, cat uint32) {
	if !c.on {
		return
	}
	l := c.list(cat)
	c.pos[s] = int32(len(*l))
	*l = append(*l, s)
}

func (c *catIndex) remove(s int32, cat uint32) {
	if !c.on {
		return
	}
	l := c.list(cat)
	i, last := c.pos[s], len(*l)-1
	moved := (*l)[last]
	(*l)[i] = moved
	c.pos[moved] = i
	*l = (*l)[:last]
}

// count returns how many live bodies have a category bit in mask, counting
// every body of several bits (an upper bound: the candidates of a scan).
func (c *catIndex) count(mask uint32) int {
	n := len(c.multi)
	if c.lists == nil {
		return n
	}
	for m := mask; m != 0; m &= m - 1 {
		n += len(c.lists[bits.TrailingZeros32(m)])
	}
	return n
}

// each calls fn for every live body with a category bit in mask (and for
// every body of several bits, which fn must check), until fn returns false.
func (c *catIndex) each(mask uint32, fn func(s int32) bool) {
	for m := mask; m != 0 && c.lists != nil; m &= m - 1 {
		for _, s := range c.lists[bits.TrailingZeros32(m)] {
			if !fn(s) {
				return
			}
		}
	}
	for _, s := range c.multi {
		if !fn(s) {
			return
		}
	}
}
