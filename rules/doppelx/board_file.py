"""Load and validate playfield side files (format ``doppelx-board/1``, TOML, millimetres).

The format is documented in ``docs/board-format.md``. Built-in sides are named ``I`` …
``IV``; anything else is taken as a path, so custom boards load wherever a name is
accepted. Every mistake raises :class:`SpecError` naming the file and the element.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import shapely
from shapely.geometry import Point, Polygon
from shapely.validation import explain_validity

from rules.common.assets import asset_path, read_toml, shown_name
from rules.common.errors import SpecError
from rules.common.schema import DataTable
from rules.doppelx.board import BoardSide, Field, FieldKind, Hole, Obstacle, SpinnerMount

log = logging.getLogger(__name__)

FORMAT = "doppelx-board/1"
BUILTIN_SIDES = ("I", "II", "III", "IV")
MM = 1e-3
#: Areas below this (mm²) count as zero when checking overlaps and gaps.
AREA_TOLERANCE_MM2 = 1e-2
#: Circles are stored as polygons with this many segments per quarter circle.
CIRCLE_QUAD_SEGS = 32
#: Largest coordinate or length in a board file (mm): a box is 270 mm wide.
MAX_SIZE_MM = 1000.0
#: Tallest obstacle or spinner (mm); the box's rim check (rules.doppelx.box) is stricter.
MAX_HEIGHT_MM = 100.0
#: Largest share of the playfield obstacles may cover.
MAX_OBSTACLE_SHARE = 0.25
#: Thinnest field line (mm): the rules' "touches a line" needs a line to touch.
MIN_LINE_MM = 0.1
#: Smallest hole radius (mm): a die's corner at least must fit.
MIN_HOLE_RADIUS_MM = 1.0
#: Largest share of the playfield holes may cover: more and most throws fall through (the
#: shipped sides have 4–5 %).
MAX_HOLE_SHARE = 0.5
#: Edge of the shipped die (mm, ``assets/dice.toml``): the yardstick of the playability checks.
DIE_MM = 16.0
#: Narrowest playfield (mm): the outline must hold a circle this wide somewhere, so a die
#: (16 mm) can lie flat on it.
MIN_PLAYFIELD_MM = DIE_MM
#: Shortest spinner arm, pin to tip (mm): a shorter triangle hides under a resting die
#: instead of swatting it.
MIN_ARM_MM = DIE_MM
#: Longest board name or path accepted (characters).
MAX_NAME_CHARS = 1024


def builtin_board_path(name: str) -> Path:
    """Path of built-in side ``name`` (``I`` … ``IV``)."""
    return asset_path("boards", f"side_{name}.toml")


def builtin_side(name_or_path: str | Path) -> str | None:
    """The built-in side ``name_or_path`` names (``"iii"`` → ``"III"``), or ``None`` for a file."""
    text = str(name_or_path).upper()
    return text if text in BUILTIN_SIDES else None


def board_reference(name_or_path: str | Path) -> str:
    """One spelling per board: a built-in side by its name (``iii`` → ``III``), a board file
    by its absolute path (``my.toml`` and ``./my.toml`` are one file), an empty name as given
    (for :func:`resolve_board` to refuse). How a batch run and a sweep name a board."""
    text = str(name_or_path)
    side = builtin_side(text.strip())
    if side is not None:
        return side
    return str(Path(text).resolve()) if text.strip() else text


def resolve_board(name_or_path: str | Path) -> Path:
    """A built-in side name (case-insensitive) or a path to a board file."""
    text = str(name_or_path)
    side = builtin_side(text)
    if side is not None:
        return builtin_board_path(side)
    if not text.strip():
        raise SpecError(
            "board", "", f"an empty name: give a built-in side ({', '.join(BUILTIN_SIDES)}) or a file"
        )
    if len(text) > MAX_NAME_CHARS or "\0" in text:
        raise SpecError(
            shown_name(text), "", f"not a built-in side ({', '.join(BUILTIN_SIDES)}) nor a usable file name"
        )
    path = Path(text)
    try:
        exists = path.exists()
    except OSError:
        exists = False
    if path.suffix.lower() != ".toml" and not exists:
        raise SpecError(text, "", f"not a built-in side ({', '.join(BUILTIN_SIDES)}) and no such file")
    return path


@functools.lru_cache(maxsize=64)
def _load_cached(path: str, mtime_ns: int) -> BoardSide:
    from rules.doppelx.box import load_box

    data = read_toml(path)
    board = parse_board(data, path)
    load_box().check_board(board)
    _check_side_name(board, data)
    log.info("loaded board %s from %s", board.name, path)
    return board


def load_board(name_or_path: str | Path) -> BoardSide:
    """Load and validate a side by built-in name or path (cached per file version)."""
    path = resolve_board(name_or_path)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        raise SpecError(str(path), "", "file not found") from None
    except OSError as exc:
        raise SpecError(shown_name(path), "", f"cannot read file ({exc.strerror or exc})") from None
    return _load_cached(str(path), mtime)


def parse_board(data: dict, source: str) -> BoardSide:
    """Build a :class:`BoardSide` from a parsed board file (mm → m), validating everything."""
    top = DataTable(data, source)
    top.check_keys(
        {
            "format",
            "name",
            "title",
            "units",
            "line_width",
            "outline",
            "fields",
            "holes",
            "spinner",
            "obstacles",
        }
    )
    fmt = top.string("format")
    if fmt != FORMAT:
        raise top.error("format", f"unsupported format {fmt!r}; this version reads {FORMAT!r}")
    top.string("units", "mm", choices=("mm",))
    name = _board_name(top, source)
    title = top.text("title", f"Side {name}")
    line_width = top.number("line_width", minimum=MIN_LINE_MM, maximum=20)

    outline_t = top.table("outline")
    outline_t.check_keys({"polygon"})
    outline = _polygon(outline_t, "polygon")

    ids: set[str] = set()  # one name space: fields, holes and obstacles
    fields = _fields(top, outline, ids)
    holes = _holes(top, outline, ids)
    spinner = _spinner(top, outline, holes)
    obstacles = _obstacles(top, outline, holes, spinner, ids)

    _check_playable(top, outline, holes)
    scale = functools.partial(shapely.transform, transformation=lambda c: c * MM)
    board = BoardSide(
        name=name,
        title=title,
        source=source,
        line_width=line_width * MM,
        outline=scale(outline),
        fields=tuple(Field(fid, kind, scale(shape)) for fid, kind, shape in fields),
        holes=tuple(
            Hole(hid, scale(shape), None if c is None else (c[0] * MM, c[1] * MM, c[2] * MM))
            for hid, shape, c in holes
        ),
        spinner=spinner,
        obstacles=tuple(Obstacle(oid, scale(shape), h * MM) for oid, shape, h in obstacles),
    )
    _check_fields_touchable(top, board)
    return board


def _board_name(top: DataTable, source: str) -> str:
    """The board's ``name``; without one the file's stem, or the whole file name where the stem
    is a built-in side's name (``II.toml`` is not side II: see :func:`_check_side_name`)."""
    stem = Path(source).stem
    return top.text("name", Path(source).name if builtin_side(stem.strip()) else stem)


def _check_side_name(board: BoardSide, data: dict) -> None:
    """A board file may call itself ``I`` … ``IV`` only if it *is* that shipped side (the
    shipped file, or a copy with the same content), so "board II" in a message always means
    side II. ``data`` is the file's parsed content."""
    side = builtin_side(board.name.strip())
    if side is None:
        return
    shipped = builtin_board_path(side)
    try:
        same = Path(board.source).resolve() == shipped.resolve() or read_toml(shipped) == data
    except (OSError, ValueError, RuntimeError, SpecError):
        same = False
    if not same:
        raise SpecError(
            shown_name(board.source),
            "name",
            f"{board.name!r} is the name of the shipped side {side}, and this board is not that side; "
            f"give it a name of its own (or no name: the file's name is taken)",
        )


def _check_playable(top: DataTable, outline: Polygon, holes: list) -> None:
    """Designer mistakes that leave nothing to play: a playfield narrower than a die, holes
    covering most of it (mm)."""
    widest = 2 * shapely.maximum_inscribed_circle(outline).length
    if widest < MIN_PLAYFIELD_MM - 1e-9:
        raise top.error(
            "outline.polygon",
            f"the playfield is at most {widest:.3g} mm wide; a die ({DIE_MM:g} mm) needs at least "
            f"{MIN_PLAYFIELD_MM:g} mm to lie on it",
        )
    _check_share(top, "holes", sum(shape.area for _, shape, _ in holes), outline, MAX_HOLE_SHARE)


def _check_share(top: DataTable, key: str, covered: float, outline: Polygon, most: float) -> None:
    """Refuse ``key`` (holes, obstacles) covering more than the share ``most`` of the playfield."""
    if covered > most * outline.area:
        raise top.error(
            key,
            f"{key} cover {100 * covered / outline.area:.0f}% of the playfield; "
            f"at most {100 * most:.0f}% leaves room to play",
        )


def _check_fields_touchable(top: DataTable, board: BoardSide) -> None:
    """Every field keeps some area a die can touch: not all of it inside holes (nor under the
    lines of higher-ranked neighbours), where the referee would never find it (D8–D10)."""
    from rules.doppelx.fieldmap import field_map

    regions = field_map(board).regions
    entries = top.raw("fields")
    index = {t.get("id"): i for i, t in enumerate(entries) if isinstance(t, dict)}
    for f, region in zip(board.fields, regions):
        if region.area / (MM * MM) > AREA_TOLERANCE_MM2:
            continue
        inside = [h.id for h in board.holes if f.shape.intersects(h.shape)]
        named = f"hole{'s' if len(inside) > 1 else ''} {', '.join(map(repr, inside[:3]))}"
        uncovered = f.shape.difference(shapely.union_all([h.shape for h in board.holes])).area
        if not inside:
            why = "lies wholly under the white lines of higher-ranked neighbours (narrower than line_width)"
        elif uncovered <= AREA_TOLERANCE_MM2 * MM * MM:
            why = f"lies wholly inside {named}"
        else:
            why = f"is covered by {named} and the white lines of higher-ranked neighbours"
        raise top.error(
            f"fields[{index.get(f.id, 0)}]",
            f"field {f.id!r} {why}: a die can never touch it",
        )


def _polygon(t: DataTable, key: str) -> Polygon:
    pts = t.points(key)
    poly = Polygon(pts)
    if not poly.is_valid:
        raise t.error(key, f"not a simple polygon ({explain_validity(poly)})")
    if poly.area <= AREA_TOLERANCE_MM2:
        raise t.error(key, "polygon has no area")
    return shapely.normalize(poly)


def _ident(t: DataTable, seen: set[str]) -> str:
    ident = t.text("id")
    if ident in seen:
        raise t.error("id", f"duplicate id {ident!r} (fields, holes and obstacles share one set of ids)")
    seen.add(ident)
    return ident


def _fields(top: DataTable, outline: Polygon, seen: set[str]) -> list[tuple[str, FieldKind, Polygon]]:
    kinds = tuple(k.value for k in FieldKind)
    explicit: list[tuple[str, FieldKind, Polygon, DataTable]] = []
    rest: tuple[str, FieldKind, DataTable] | None = None
    entries = list(top.tables("fields", required=True))
    if not entries:
        raise top.error("fields", "a board needs at least one field")
    for t in entries:
        t.check_keys({"id", "kind", "polygon", "fill"})
        fid = _ident(t, seen)
        kind = FieldKind(t.string("kind", choices=kinds))
        if t.has("fill"):
            t.string("fill", choices=("rest",))
            if t.has("polygon"):
                raise t.error("polygon", 'a field with fill = "rest" takes no polygon')
            if rest is not None:
                raise t.error("fill", f"only one field may fill the rest (field {rest[0]!r} already does)")
            rest = (fid, kind, t)
            continue
        poly = _polygon(t, "polygon")
        outside = poly.difference(outline).area
        if outside > AREA_TOLERANCE_MM2:
            raise t.error("polygon", f"field extends {outside:.1f} mm² outside the outline")
        explicit.append((fid, kind, poly, t))

    for i, (fid_a, _, poly_a, ta) in enumerate(explicit):
        for fid_b, _, poly_b, _ in explicit[i + 1 :]:
            overlap = poly_a.intersection(poly_b).area
            if overlap > AREA_TOLERANCE_MM2:
                raise ta.error("polygon", f"field {fid_a!r} overlaps field {fid_b!r} by {overlap:.1f} mm²")

    covered = shapely.union_all([p for _, _, p, _ in explicit]) if explicit else Polygon()
    result = [(fid, kind, poly) for fid, kind, poly, _ in explicit]
    remainder = outline.difference(covered)
    if rest is not None:
        fid, kind, t = rest
        if remainder.area <= AREA_TOLERANCE_MM2:
            raise t.error("fill", "nothing is left for the rest field to fill")
        result.append((fid, kind, shapely.normalize(remainder)))
    elif remainder.area > AREA_TOLERANCE_MM2:
        at = remainder.representative_point()
        raise top.error(
            "fields",
            f"fields leave a gap of {remainder.area:.1f} mm² near "
            f'({at.x:.1f}, {at.y:.1f}) mm; add a field there or a fill = "rest" field',
        )
    return result


def _holes(
    top: DataTable, outline: Polygon, seen: set[str]
) -> list[tuple[str, Polygon, tuple[float, float, float] | None]]:
    holes: list[tuple[str, Polygon, tuple[float, float, float] | None]] = []
    for t in top.tables("holes"):
        t.check_keys({"id", "circle", "polygon"})
        hid = _ident(t, seen)
        if t.has("circle") == t.has("polygon"):
            raise t.error(None, "a hole needs exactly one of circle = {center, radius} or polygon")
        if t.has("circle"):
            c = t.table("circle")
            c.check_keys({"center", "radius"})
            cx, cy = c.vector("center", 2)
            r = c.number("radius", minimum=MIN_HOLE_RADIUS_MM)
            shape = Point(cx, cy).buffer(r, quad_segs=CIRCLE_QUAD_SEGS)
            circle = (cx, cy, r)
        else:
            shape, circle = _polygon(t, "polygon"), None
        if not shape.within(outline):
            raise t.error("circle" if circle else "polygon", "hole is not inside the board outline")
        for other_id, other, _ in holes:
            if shape.intersects(other):
                raise t.error(None, f"hole {hid!r} overlaps or touches hole {other_id!r}")
        holes.append((hid, shape, circle))
    return holes


def _spinner(top: DataTable, outline: Polygon, holes: list) -> SpinnerMount | None:
    t = top.table("spinner", None)
    if t is None:
        return None
    t.check_keys({"center", "arm_length", "thickness", "height", "pin_radius"})
    cx, cy = t.vector("center", 2)
    arm = t.number("arm_length", positive=True, maximum=MAX_SIZE_MM)
    if arm < MIN_ARM_MM:
        raise t.error(
            "arm_length",
            f"{arm:g} mm is shorter than a die ({DIE_MM:g} mm); the arms must be at least "
            f"{MIN_ARM_MM:g} mm long to swat one",
        )
    thickness = t.number("thickness", positive=True, maximum=MAX_HEIGHT_MM)
    height = t.number("height", positive=True, maximum=MAX_HEIGHT_MM)
    pin = t.number("pin_radius", positive=True, maximum=MAX_SIZE_MM)
    if pin >= arm:
        raise t.error("pin_radius", "must be smaller than arm_length")
    if thickness > height:
        raise t.error(
            "thickness", f"the arms ({thickness:g} mm thick) cannot be thicker than height ({height:g} mm)"
        )
    sweep = Point(cx, cy).buffer(arm)
    if not sweep.within(outline):
        raise t.error("center", "the spinner's sweep circle does not fit inside the outline")
    for hid, shape, _ in holes:
        if Point(cx, cy).buffer(pin).intersects(shape):
            raise t.error("center", f"the spinner pin stands in hole {hid!r}")
    return SpinnerMount((cx * MM, cy * MM), arm * MM, thickness * MM, height * MM, pin * MM)


def _obstacles(
    top: DataTable, outline: Polygon, holes: list, spinner: SpinnerMount | None, seen: set[str]
) -> list[tuple[str, Polygon, float]]:
    result: list[tuple[str, Polygon, float]] = []
    sweep = None
    if spinner is not None:
        sweep = Point(spinner.center[0] / MM, spinner.center[1] / MM).buffer(spinner.arm_length / MM)
    for t in top.tables("obstacles"):
        t.check_keys({"id", "polygon", "height"})
        oid = _ident(t, seen)
        poly = _polygon(t, "polygon")
        if not poly.within(outline):
            raise t.error("polygon", "obstacle is not inside the board outline")
        for other_id, other, _ in result:
            overlap = poly.intersection(other).area
            if overlap > AREA_TOLERANCE_MM2:
                raise t.error(
                    "polygon", f"obstacle {oid!r} overlaps obstacle {other_id!r} by {overlap:.1f} mm²"
                )
        for hid, shape, _ in holes:
            if poly.intersection(shape).area > AREA_TOLERANCE_MM2:
                raise t.error("polygon", f"obstacle {oid!r} covers part of hole {hid!r}")
        if sweep is not None and poly.intersection(sweep).area > AREA_TOLERANCE_MM2:
            raise t.error("polygon", f"obstacle {oid!r} stands inside the spinner's sweep circle")
        result.append((oid, poly, t.number("height", positive=True, maximum=MAX_HEIGHT_MM)))
    _check_share(top, "obstacles", sum(p.area for _, p, _ in result), outline, MAX_OBSTACLE_SHARE)
    return result
