"""Plane geometry of the table: bearings, unit rectangles, wheeling, and where a moving unit's
footprint meets an obstacle. Lengths in cm, bearings in degrees clockwise from +y.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Point = tuple[float, float]


def heading(bearing: float) -> Point:
    """The unit vector of a bearing (0: +y, 90: +x)."""
    r = math.radians(bearing)
    return math.sin(r), math.cos(r)


def normalize(angle: float) -> float:
    """An angle in (-180, 180]."""
    a = math.fmod(angle, 360.0)
    if a <= -180:
        a += 360
    elif a > 180:
        a -= 360
    return round(a, 9)


def bearing_to(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


def corners(x: float, y: float, facing: float, width: float, depth: float) -> list[Point]:
    """A unit's rectangle from the middle of its front: front-left, front-right, rear-right,
    rear-left."""
    fx, fy = heading(facing)
    rx, ry = fy, -fx  # the right hand
    hw = width / 2
    fl = (x - rx * hw, y - ry * hw)
    fr = (x + rx * hw, y + ry * hw)
    return [
        fl,
        fr,
        (fr[0] - fx * depth, fr[1] - fy * depth),
        (fl[0] - fx * depth, fl[1] - fy * depth),
    ]


def local(p: Point, origin: Point, bearing: float) -> Point:
    """`p` as (u, w): u along the bearing from `origin`, w to its right."""
    fx, fy = heading(bearing)
    dx, dy = p[0] - origin[0], p[1] - origin[1]
    return dx * fx + dy * fy, dx * fy - dy * fx


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]):
            xc = x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1)
            if p[0] < xc:
                inside = not inside
    return inside


def _clip(poly: list[Point], keep_w_le: float, sign: float) -> list[Point]:
    """Sutherland-Hodgman against sign*w <= keep_w_le (local coordinates)."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        ia, ib = sign * a[1] <= keep_w_le, sign * b[1] <= keep_w_le
        if ia:
            out.append(a)
        if ia != ib:
            t = (keep_w_le - sign * a[1]) / (sign * (b[1] - a[1]))
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def band_extent(
    poly: Sequence[Point], origin: Point, bearing: float, half_width: float
) -> tuple[float, float] | None:
    """Where along the bearing a polygon lies within the band |w| <= half_width: (u0, u1)."""
    pts = [local(p, origin, bearing) for p in poly]
    pts = _clip(pts, half_width, 1.0)
    if pts:
        pts = _clip(pts, half_width, -1.0)
    if not pts:
        return None
    us = [p[0] for p in pts]
    return min(us), max(us)


def line_crossings(
    line: Sequence[Point], origin: Point, bearing: float, half_width: float
) -> list[float]:
    """Where along the bearing each segment of a polyline first enters the band: u values."""
    out = []
    pts = [local(p, origin, bearing) for p in line]
    for a, b in itertools.pairwise(pts):
        t0, t1 = 0.0, 1.0
        dw = b[1] - a[1]
        ok = True
        for sign in (1.0, -1.0):  # sign*w <= half_width
            num = half_width - sign * a[1]
            den = sign * dw
            if den == 0:
                if num < 0:
                    ok = False
            elif den > 0:
                t1 = min(t1, num / den)
            else:
                t0 = max(t0, num / den)
        if ok and t0 <= t1:
            ua = a[0] + t0 * (b[0] - a[0])
            ub = a[0] + t1 * (b[0] - a[0])
            out.append(min(ua, ub))
    return out


def strip(line: Sequence[Point], width: float) -> list[list[Point]]:
    """A polyline drawn as rectangles `width` wide along each segment (for the map)."""
    out = []
    for (x1, y1), (x2, y2) in itertools.pairwise(line):
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length * width / 2, (x2 - x1) / length * width / 2
        out.append([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)])
    return out


def wheel(
    x: float, y: float, facing: float, width: float, angle: float
) -> tuple[float, float, float, Point, float]:
    """Wheel a unit `angle` degrees (+ to the right) about its front corner figure on that side.

    Returns the new middle of the front, the new facing, the pivot and the arc (cm) the opposite
    front corner figure describes.
    """
    fx, fy = heading(facing)
    rx, ry = fy, -fx
    side = 1.0 if angle > 0 else -1.0
    pivot = (x + side * rx * width / 2, y + side * ry * width / 2)
    new_facing = (facing + angle) % 360
    nfx, nfy = heading(new_facing)
    nrx, nry = nfy, -nfx
    nx = pivot[0] - side * nrx * width / 2
    ny = pivot[1] - side * nry * width / 2
    arc = width * math.radians(abs(angle))
    return nx, ny, new_facing, pivot, arc


def centroid(poly: Sequence[Point]) -> Point:
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    return sum(xs) / len(xs), sum(ys) / len(ys)
