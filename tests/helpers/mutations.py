"""Random damage to a JSON-like value: the mutation strategy the bad-input suites share."""

from __future__ import annotations

import copy
import os

from hypothesis import strategies as st

#: Examples per property; ``DOPPELX_BADINPUT_EXAMPLES=2000`` for a deeper search.
EXAMPLES = int(os.environ.get("DOPPELX_BADINPUT_EXAMPLES", "60"))
ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([10**30, -(10**30), 2**63, 0, -1, 1, 7, 1000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["", "x" * 3000, "white", "blue", "hole", "off", "board", "X", "3x", "I", "IX"]),
    st.lists(st.integers(-5, 5), max_size=5),
    st.lists(st.floats(-1, 1), min_size=2, max_size=4),
    st.dictionaries(st.sampled_from(["a", "id", "x", "blue"]), st.integers(), max_size=2),
)


def _paths(node, prefix=()):
    """Every place inside ``node`` (dict keys and list indices), as a path of keys."""
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return
    for key, value in items:
        yield (*prefix, key)
        yield from _paths(value, (*prefix, key))


@st.composite
def mutated(draw, base):
    """``base`` with 1–3 random changes (see the module docstring)."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        places = list(_paths(data))
        if not places:
            break
        path = draw(st.sampled_from(places))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = draw(st.sampled_from(["replace", "replace", "scale", "delete", "add", "duplicate"]))
        value = parent[key]
        if op == "scale" and isinstance(value, (int, float)) and not isinstance(value, bool):
            parent[key] = value * draw(st.sampled_from([1000, -1, 0, 1e-3, 1e9, 1.5]))
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "colour", "seed", "x"]))] = draw(ODD_VALUES)
        elif op == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        else:
            parent[key] = draw(ODD_VALUES)
    return data
