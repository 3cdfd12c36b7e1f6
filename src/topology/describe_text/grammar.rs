//! Items into topology blocks, sub-topologies and nodes, with the checks that catch a truncated
//! or contradictory text: every node has the arrows its kind prints, every name an arrow lists
//! is a node of the same sub-topology, and the two arrows of every edge agree.

use std::collections::BTreeMap;

use crate::topology::ParseError;

use super::items::{classify, Dir, Item, Located, NameRef, NodeKind};
use super::lines::Lines;

#[derive(Debug)]
pub(super) struct Block {
    pub name: Option<String>,
    pub subs: Vec<RawSub>,
    /// Pre-1.1 global stores: (topic, store).
    pub old_globals: Vec<(String, String)>,
}

#[derive(Debug)]
pub(super) struct RawSub {
    pub id: String,
    pub global: bool,
    pub nodes: Vec<RawNode>,
}

#[derive(Debug)]
pub(super) struct RawNode {
    pub name: String,
    pub kind: NodeKind,
    line: usize,
    out: Option<Vec<NameRef>>,
    inn: Option<Vec<NameRef>>,
}

impl RawNode {
    /// The names after `-->`: the nodes this one forwards to.
    pub fn successors(&self) -> Vec<String> {
        self.out.iter().flatten().map(|r| r.name.clone()).collect()
    }
    fn what(&self) -> String {
        format!("{} {}", self.kind.keyword(), self.name)
    }
    fn arrow(&self, dir: Dir) -> &Option<Vec<NameRef>> {
        match dir {
            Dir::Out => &self.out,
            Dir::In => &self.inn,
        }
    }
    /// The arrows this kind of node is printed with.
    fn needs(&self) -> &'static [Dir] {
        match self.kind {
            NodeKind::Source(_) => &[Dir::Out],
            NodeKind::Processor(_) => &[Dir::Out, Dir::In],
            NodeKind::Sink(_) => &[Dir::In],
        }
    }
}

struct OpenSub {
    id: String,
    global: bool,
    line: usize,
    col: usize,
    nodes: Vec<RawNode>,
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
    sub: Option<OpenSub>,
    /// Right after a pre-1.1 section header, where `none` may stand.
    none_allowed: bool,
    started: bool,
    total_lines: usize,
}

pub(super) fn parse(lines: &Lines) -> Result<Vec<Block>, ParseError> {
    let mut b = Builder {
        total_lines: lines.total.max(1),
        ..Builder::default()
    };
    for line in &lines.lines {
        for item in classify(line)? {
            b.item(item)?;
        }
    }
    b.close_sub(None)?;
    if b.blocks.is_empty() {
        return Err(ParseError::at(
            b.total_lines,
            1,
            "unexpected end of input: expected `Topologies:`, `Topology: NAME:` or \
             `Sub-topology: N`",
        ));
    }
    Ok(b.blocks)
}

impl Builder {
    fn item(&mut self, it: Located) -> Result<(), ParseError> {
        let none_allowed = std::mem::take(&mut self.none_allowed);
        let started = std::mem::replace(&mut self.started, true);
        let here = (it.line, it.col);
        match it.item {
            Item::Title if !started => Ok(()),
            Item::Title => Err(err(here, "unexpected `Topology` line")),
            Item::Topologies { legacy } => {
                self.close_sub(Some(here))?;
                self.header(None, here)?;
                self.none_allowed = legacy;
                Ok(())
            }
            Item::Named(name) => {
                self.close_sub(Some(here))?;
                self.header(Some(name), here)
            }
            Item::GlobalStores => {
                self.close_sub(Some(here))?;
                self.ensure_block();
                self.none_allowed = true;
                Ok(())
            }
            Item::NoneMarker if none_allowed => Ok(()),
            Item::OldGlobal { topic, store } => {
                self.close_sub(Some(here))?;
                self.ensure_block().old_globals.push((topic, store));
                Ok(())
            }
            Item::Sub { id, global } => self.open_sub(id, global, here),
            Item::Node { name, kind } => self.node(name, kind, here),
            Item::Arrow { dir, names } => self.arrow(dir, names, here),
            Item::NoneMarker | Item::Unknown => Err(self.unexpected(here)),
        }
    }

    /// What a line that is not describe text should have been, where it stands.
    fn unexpected(&self, here: (usize, usize)) -> ParseError {
        let expected = match &self.sub {
            Some(s) if s.nodes.is_empty() => "expected `Source:`, `Processor:` or `Sink:`",
            Some(_) => "expected `Source:`, `Processor:`, `Sink:` or `Sub-topology:`",
            None if self.blocks.is_empty() => {
                "expected `Topologies:`, `Topology: NAME:` or `Sub-topology: N`"
            }
            None => "expected `Sub-topology: N`",
        };
        err(here, expected)
    }

    fn header(&mut self, name: Option<String>, here: (usize, usize)) -> Result<(), ParseError> {
        if !self.blocks.is_empty()
            && (name.is_none() || self.blocks.iter().any(|b| b.name.is_none()))
        {
            return Err(err(
                here,
                "a second topology header: expected a single `Topologies:` block, or only \
                 named topologies (`Topology: NAME:`); paste one description at a time",
            ));
        }
        if let Some(n) = &name {
            if self.blocks.iter().any(|b| b.name.as_ref() == Some(n)) {
                return Err(err(here, format!("named topology {n} appears twice")));
            }
        }
        self.blocks.push(Block {
            name,
            subs: Vec::new(),
            old_globals: Vec::new(),
        });
        Ok(())
    }

    /// The block being filled; text without a header is one unnamed block.
    fn ensure_block(&mut self) -> &mut Block {
        if self.blocks.is_empty() {
            self.blocks.push(Block {
                name: None,
                subs: Vec::new(),
                old_globals: Vec::new(),
            });
        }
        let last = self.blocks.len() - 1;
        &mut self.blocks[last]
    }

    fn open_sub(
        &mut self,
        id: String,
        global: bool,
        here: (usize, usize),
    ) -> Result<(), ParseError> {
        self.close_sub(Some(here))?;
        if self.ensure_block().subs.iter().any(|s| s.id == id) {
            return Err(err(here, format!("duplicate sub-topology id {id}")));
        }
        self.sub = Some(OpenSub {
            id,
            global,
            line: here.0,
            col: here.1,
            nodes: Vec::new(),
        });
        Ok(())
    }

    fn node(
        &mut self,
        name: String,
        kind: NodeKind,
        here: (usize, usize),
    ) -> Result<(), ParseError> {
        let Some(sub) = &self.sub else {
            return Err(err(
                here,
                "expected `Sub-topology: N` before the first node",
            ));
        };
        if let Some(last) = sub.nodes.last() {
            check_arrows(last, Some(here), self.total_lines)?;
        }
        if sub.nodes.iter().any(|n| n.name == name) {
            let msg = format!("duplicate node name {name} in sub-topology {}", sub.id);
            return Err(err(here, msg));
        }
        let node = RawNode {
            name,
            kind,
            line: here.0,
            out: None,
            inn: None,
        };
        if let Some(sub) = &mut self.sub {
            sub.nodes.push(node);
        }
        Ok(())
    }

    fn arrow(
        &mut self,
        dir: Dir,
        names: Vec<NameRef>,
        here: (usize, usize),
    ) -> Result<(), ParseError> {
        let Some(node) = self.sub.as_mut().and_then(|s| s.nodes.last_mut()) else {
            return Err(err(
                here,
                "an arrow line out of place: expected `Source:`, `Processor:` or `Sink:`",
            ));
        };
        if !node.needs().contains(&dir) {
            let msg = format!(
                "a {} has no `{}` line (found one under {}): the text is mixed up",
                node.kind.keyword(),
                dir.arrow(),
                node.what()
            );
            return Err(err(here, msg));
        }
        let slot = match dir {
            Dir::Out => &mut node.out,
            Dir::In => &mut node.inn,
        };
        if slot.is_some() {
            let msg = format!("a second `{}` line for {}", dir.arrow(), node.what());
            return Err(err(here, msg));
        }
        *slot = Some(names);
        Ok(())
    }

    /// Finish the open sub-topology: `next` is where the item after it stands (`None` at the
    /// end of the input).
    fn close_sub(&mut self, next: Option<(usize, usize)>) -> Result<(), ParseError> {
        let Some(sub) = self.sub.take() else {
            return Ok(());
        };
        if let Some(last) = sub.nodes.last() {
            check_arrows(last, next, self.total_lines)?;
        }
        check_sub(&sub)?;
        self.ensure_block().subs.push(RawSub {
            id: sub.id,
            global: sub.global,
            nodes: sub.nodes,
        });
        Ok(())
    }
}

fn err(here: (usize, usize), message: impl Into<String>) -> ParseError {
    ParseError::at(here.0, here.1, message)
}

/// A node must have the arrows its kind prints before the next item (or the end) comes.
fn check_arrows(
    node: &RawNode,
    next: Option<(usize, usize)>,
    total_lines: usize,
) -> Result<(), ParseError> {
    let Some(dir) = node.needs().iter().find(|d| node.arrow(**d).is_none()) else {
        return Ok(());
    };
    let expected = format!("`{} ` with the node names of {}", dir.arrow(), node.what());
    Err(match next {
        None => ParseError::at(
            total_lines,
            1,
            format!("unexpected end of input: expected {expected} (truncated input?)"),
        ),
        Some(here) => err(
            here,
            format!("expected {expected} (line {}) before this line", node.line),
        ),
    })
}

/// A whole sub-topology: nodes, a source, known names, and edges both ends agree on.
fn check_sub(sub: &OpenSub) -> Result<(), ParseError> {
    let here = (sub.line, sub.col);
    if sub.nodes.is_empty() {
        let msg = format!("sub-topology {} has no nodes (truncated input?)", sub.id);
        return Err(err(here, msg));
    }
    if !sub
        .nodes
        .iter()
        .any(|n| matches!(n.kind, NodeKind::Source(_)))
    {
        let msg = format!("sub-topology {} has no `Source:` node", sub.id);
        return Err(err(here, msg));
    }
    let by_name: BTreeMap<&str, &RawNode> =
        sub.nodes.iter().map(|n| (n.name.as_str(), n)).collect();
    let refs = || {
        sub.nodes.iter().flat_map(|node| {
            [Dir::Out, Dir::In].into_iter().flat_map(move |dir| {
                node.arrow(dir)
                    .iter()
                    .flatten()
                    .map(move |r| (node, dir, r))
            })
        })
    };
    // A name that is not there first: a cut-off name is likelier than an edited edge.
    if let Some((_, _, r)) = refs().find(|(_, _, r)| !by_name.contains_key(r.name.as_str())) {
        let msg = format!(
            "node {} is not in sub-topology {} (truncated input?)",
            r.name, sub.id
        );
        return Err(err((r.line, r.column), msg));
    }
    for (node, dir, r) in refs() {
        check_edge(node, dir, r, by_name[r.name.as_str()])?;
    }
    Ok(())
}

/// `node` lists `other` (at `r`) after `dir`: `other` must list `node` the other way.
fn check_edge(node: &RawNode, dir: Dir, r: &NameRef, other: &RawNode) -> Result<(), ParseError> {
    let at = (r.line, r.column);
    let back = match dir {
        Dir::Out => Dir::In,
        Dir::In => Dir::Out,
    };
    let agrees = other
        .arrow(back)
        .iter()
        .flatten()
        .any(|b| b.name == node.name);
    if agrees {
        return Ok(());
    }
    Err(err(
        at,
        format!(
            "{} lists {} after `{}`, but {} (line {}) does not list it after `{}`: the text \
             contradicts itself (edited by hand, or mixed from two descriptions?)",
            node.what(),
            r.name,
            dir.arrow(),
            other.what(),
            other.line,
            back.arrow()
        ),
    ))
}
