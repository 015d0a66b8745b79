#!/usr/bin/env python3
"""Checks that dependencies in src/ point down (docs/architecture.md).

The bottom layer (the model, the contract and the plumbing under them) is a
crate of its own, crates/core: the compiler keeps it from naming anything
above it. What the compiler cannot see is the direction inside the
`partkit` crate. This reads every `crate::<module>` reference outside
comments in src/, builds the graph of top-level modules, and fails when:
  - a shape's folder names an engine or the command line;
  - an import cycle goes through the shapes.
Prints the cycles that remain (between engines they are allowed) with -v,
and every edge with -vv (edges into the bottom crate, re-exported at the
root as `crate::json` and the like, are listed with it as `core`).

  python3 scripts/layers.py [-v|-vv]
"""

import collections
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "src")
CORE = os.path.join(HERE, "..", "crates", "core", "src")

# What a shape's folder and the contract must never name.
ENGINES = {"assemble", "convert", "validate", "scan", "inspect", "split", "encode", "resize",
           "view", "profile", "tokens", "fetch", "commands", "cli", "config", "output"}

def modules_in(root):
    found = set()
    for name in os.listdir(root):
        if name.endswith(".rs"):
            found.add(name[:-3])
        elif os.path.isdir(os.path.join(root, name)):
            found.add(name)
    return found - {"lib", "main"}


# The bottom crate's modules, as the partkit crate names them.
BOTTOM = modules_in(CORE)


def code_of(path):
    """The file's text with // comments (and doc comments) taken out."""
    lines = []
    for line in open(path, encoding="utf-8").read().split("\n"):
        lines.append(line.split("//")[0])
    return "\n".join(lines)


def graph():
    modules = modules_in(ROOT)
    edges = collections.Counter()
    for folder, _, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            top = os.path.relpath(path, ROOT).split(os.sep)[0].removesuffix(".rs")
            text = code_of(path)
            named = re.findall(r"crate::([a-z_]+)", text)
            for group in re.findall(r"crate::\{([^}]*)\}", text):
                named += re.findall(r"(?:^|,)\s*([a-z_]+)", group)
            for module in named:
                if module in BOTTOM:
                    edges[(top, "core")] += 1
                elif module in modules and module != top:
                    edges[(top, module)] += 1
    return modules, edges


def cycles(modules, edges):
    """The strongly connected components of more than one module (Tarjan)."""
    out = collections.defaultdict(set)
    for a, b in edges:
        out[a].add(b)
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in out[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(modules):
        if v not in index:
            visit(v)
    return found


def main():
    verbose = sys.argv[1:].count("-v") + 2 * sys.argv[1:].count("-vv")
    modules, edges = graph()
    wrong = [f"{a} -> {b} ({n})" for (a, b), n in sorted(edges.items())
             if a == "shapes" and b in ENGINES]
    found = cycles(modules, edges)
    bad_cycles = [c for c in found if "shapes" in c]
    if verbose:
        print("cycles:", found or "none")
    if verbose > 1:
        for (a, b), n in sorted(edges.items()):
            print(f"{a} -> {b} {n}")
    for line in wrong:
        print(f"layers: a shape names an engine: {line}", file=sys.stderr)
    for cycle in bad_cycles:
        print(f"layers: a cycle through the shapes: {cycle}", file=sys.stderr)
    if wrong or bad_cycles:
        sys.exit(1)
    print("layers: dependencies point down")


if __name__ == "__main__":
    main()
