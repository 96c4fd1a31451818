"""Convert ContactNets' tracked cube tosses into the tosses format ``doppelx bench tosses`` reads.

    python benchmarks/contactnets_tosses.py DIR OUT.npz [--exclude-ids-of FILE.npz] [--inertia KGM2]

``DIR`` is a copy of the repository DAIRLab/contact-nets' ``data/tosses_processed/`` (one
``N.pt`` per toss, PyTorch's legacy serialisation: a pickle of one float64 tensor of shape
(1, frames, 19) and its raw storage), read here without PyTorch. Each row is position (3),
quaternion w-first (4), velocity (3), angular velocity (3) and control (6, zeros); positions and
velocities are in half widths (the repository's README: multiply by 0.0524 m), the rest as is.
``OUT.npz`` gets the format of ``assets/validation/cube_tosses.README.md`` (positions and
velocities in metres, the control dropped, ``toss_id`` the file's number, the cube's
half width, mass and, with ``--inertia``, its moment of inertia).

``--exclude-ids-of FILE.npz`` leaves out the tosses whose ``toss_id`` that file holds: with the
shipped ``cube_tosses.npz`` it makes the 114 tosses of the 570 that the project does not ship
and no fit has seen (docs/physics.md, "Real motion": the untouched test). The shipped file's 456
tosses come out of this conversion bit for bit. Written atomically; a file that is not a
tosses file of this kind is one line and exit 2.
"""

from __future__ import annotations

import io
import pickle
import struct
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: The repository's length unit (its README): positions and velocities are in half widths.
HALF_WIDTH = 0.0524
MASS = 0.37
DT = 1.0 / 148.0
COLUMNS = 19
_STORAGES = {"DoubleStorage": np.float64, "FloatStorage": np.float32}


def read_legacy_tensor(raw: bytes) -> np.ndarray:
    """The one tensor of a PyTorch legacy-format file (``torch.save`` before 1.6): three header
    pickles (magic number, protocol, system info), the tensor's pickle with its storage as a
    persistent id, the storage keys, then each storage's element count and bytes."""
    f = io.BytesIO(raw)
    kinds: dict[str, str] = {}

    class Tensors(pickle.Unpickler):
        def find_class(self, module: str, name: str):
            if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
                return lambda storage, offset, size, stride, *rest: (storage, offset, size, stride)
            if module == "torch" and name in _STORAGES:
                return name
            if (module, name) == ("collections", "OrderedDict"):  # the tensor's (empty) backward hooks
                return dict
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a saved tensor")

        def persistent_load(self, pid):
            kinds[pid[2]] = pid[1]
            return pid[2]

    for _ in range(3):
        pickle.Unpickler(f).load()
    key, offset, size, stride = Tensors(f).load()
    keys = pickle.Unpickler(f).load()
    storages = {}
    for k in keys:
        (count,) = struct.unpack("<q", f.read(8))
        dtype = np.dtype(_STORAGES[kinds[k]])
        storages[k] = np.frombuffer(f.read(count * dtype.itemsize), dtype=dtype)
    base = storages[key][offset:]
    return np.lib.stride_tricks.as_strided(
        base, shape=tuple(size), strides=tuple(s * base.itemsize for s in stride)
    ).copy()


def toss_states(raw: bytes) -> np.ndarray:
    """One toss file's rows in the tosses format: (frames, 13), SI units."""
    a = np.asarray(read_legacy_tensor(raw), dtype=np.float64).reshape(-1, COLUMNS)[:, :13].copy()
    a[:, 0:3] *= HALF_WIDTH
    a[:, 7:10] *= HALF_WIDTH
    return a


def convert(folder: Path, exclude: set[int], inertia: float | None) -> dict[str, np.ndarray]:
    """The tosses format's arrays for every ``N.pt`` of ``folder`` whose N is not in ``exclude``."""
    ids = sorted(int(p.stem) for p in folder.glob("*.pt") if p.stem.isdigit())
    ids = [i for i in ids if i not in exclude]
    if not ids:
        raise ValueError(f"{folder}: no toss files N.pt (left after --exclude-ids-of)")
    parts = []
    for i in ids:
        path = folder / f"{i}.pt"
        try:
            parts.append(toss_states(path.read_bytes()))
        except (pickle.UnpicklingError, EOFError, KeyError, ValueError, struct.error, TypeError) as exc:
            raise ValueError(f"{path}: not a ContactNets toss file ({type(exc).__name__}: {exc})") from None
    out = {
        "states": np.concatenate(parts),
        "offsets": np.concatenate([[0], np.cumsum([len(p) for p in parts])]).astype(np.int64),
        "toss_id": np.array(ids, dtype=np.int64),
        "dt": np.float64(DT),
        "half_width_m": np.float64(HALF_WIDTH),
        "mass_kg": np.float64(MASS),
    }
    if inertia is not None:
        out["inertia_kgm2"] = np.float64(inertia)
    return out


def main(argv=None) -> int:
    from doppelx.cli import OneLineParser  # errors in one line, exit 2
    from rules.common.atomic import write_bytes

    ap = OneLineParser(description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path, help="ContactNets' data/tosses_processed/ (N.pt files)")
    ap.add_argument("out", type=Path, help="the tosses file to write (.npz)")
    ap.add_argument(
        "--exclude-ids-of", type=Path, metavar="FILE.npz", help="leave out the toss_id of this tosses file"
    )
    ap.add_argument(
        "--inertia", type=float, metavar="KGM2", help="the cube's moment of inertia (kg m²) to record"
    )
    args = ap.parse_args(argv)
    if not args.folder.is_dir():
        ap.error(f"{args.folder}: not a folder")
    if args.out.suffix != ".npz" or not args.out.parent.is_dir():
        ap.error(f"{args.out}: the output must be a .npz file in an existing folder")
    if args.inertia is not None and not args.inertia > 0:
        ap.error(f"--inertia: {args.inertia} is not a positive moment of inertia")
    exclude: set[int] = set()
    if args.exclude_ids_of is not None:
        try:
            with np.load(args.exclude_ids_of, allow_pickle=False) as z:
                exclude = {int(i) for i in z["toss_id"]}
        except (OSError, ValueError, KeyError) as exc:
            ap.error(f"{args.exclude_ids_of}: not a tosses file with toss_id ({type(exc).__name__})")
    try:
        arrays = convert(args.folder, exclude, args.inertia)
    except ValueError as exc:
        ap.error(str(exc))
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    write_bytes(args.out, buf.getvalue(), what="tosses file")
    print(f"{args.out}: {len(arrays['toss_id'])} tosses, {len(arrays['states'])} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
