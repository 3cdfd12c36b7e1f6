//! Graphviz DOT: `streams-group topology show ... --format dot | dot -Tsvg > topology.svg`.
//! Subtopologies are `cluster_` subgraphs; every id is made up, and names appear only in
//! double-quoted labels (DOT escString: `\` and `"` escaped, lines joined by `\n`).

use std::fmt::Write;

use super::{drawing, Drawing, Item, Line, Shape};
use crate::topology::picture::{Picture, TopicRole};

pub fn dot(p: &Picture) -> String {
    render(&drawing(p))
}

fn render(d: &Drawing) -> String {
    let mut out = String::new();
    out.push_str("digraph topology {\n");
    out.push_str("  rankdir=LR;\n");
    let _ = writeln!(out, "  label={};", quote(std::slice::from_ref(&d.title)));
    out.push_str("  labelloc=t;\n  fontname=\"Helvetica\";\n");
    out.push_str("  node [fontname=\"Helvetica\", fontsize=10];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=9];\n");
    for item in &d.topics {
        let _ = writeln!(out, "  {}", item_line(item));
    }
    for g in &d.groups {
        let _ = writeln!(out, "  subgraph cluster_{} {{", g.id);
        let _ = writeln!(out, "    label={};", quote(std::slice::from_ref(&g.title)));
        let style = if g.dashed { "dashed" } else { "rounded" };
        let _ = writeln!(out, "    style={style};");
        for item in &g.items {
            let _ = writeln!(out, "    {}", item_line(item));
        }
        out.push_str("  }\n");
    }
    for l in &d.links {
        let attrs = match l.line {
            Line::Flow => "",
            Line::StoreUse => " [style=dashed, arrowhead=none]",
            Line::Changelog => " [style=dotted, label=\"changelog\"]",
        };
        let _ = writeln!(out, "  {} -> {}{attrs};", l.from, l.to);
    }
    out.push_str("}\n");
    out
}

fn item_line(item: &Item) -> String {
    let attrs = match item.shape {
        Shape::Topic(TopicRole::Source) => "shape=box",
        Shape::Topic(TopicRole::Output) => "shape=box, peripheries=2",
        Shape::Topic(TopicRole::Repartition) => "shape=box, style=dashed",
        Shape::Topic(TopicRole::Changelog) => "shape=box, style=filled, fillcolor=\"#eeeeee\"",
        Shape::Pattern => "shape=box, style=\"dashed,rounded\"",
        Shape::Source | Shape::Sink => "shape=ellipse, style=bold",
        Shape::Processor => "shape=ellipse",
        Shape::Store => "shape=cylinder",
        Shape::Tasks => "shape=component",
    };
    format!("{} [label={}, {attrs}];", item.id, quote(&item.label))
}

/// A DOT double-quoted string of `lines`, joined by DOT's `\n` (centred lines).
pub(crate) fn quote(lines: &[String]) -> String {
    let escaped: Vec<String> = lines
        .iter()
        .map(|l| {
            let mut s = String::with_capacity(l.len());
            for c in l.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '"' => s.push_str("\\\""),
                    '\n' | '\r' => s.push(' '),
                    c => s.push(c),
                }
            }
            s
        })
        .collect();
    format!("\"{}\"", escaped.join("\\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_escape_quotes_and_backslashes() {
        assert_eq!(quote(&["a.b-c_d".into()]), "\"a.b-c_d\"");
        assert_eq!(
            quote(&["x\"y\\z".into(), "2".into()]),
            "\"x\\\"y\\\\z\\n2\""
        );
        assert_eq!(quote(&["a\nb".into()]), "\"a b\"");
    }
}
