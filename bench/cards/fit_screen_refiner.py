#!/usr/bin/env python3
"""Fit ScreenCardRefiner's parameters on generated TRAIN screenshots (a dev tool, never the product).

A numpy twin of Sources/SnapsortStages/Geometry/ScreenCardRefiner.swift: it starts from the quads
detect_card gives with `screen_refinement: false` and reports, for each point of a small grid, how
many quads reach IoU >= 0.9 after refining (and after the search for a card above a panel).
Run it on `--split train` renders only; the held-out figure is measured with the binary.

  bench/.venv/bin/python bench/gen/cards.py --out bench/work/shots-train --count 200 --kind screenshot \
      --split train --seed 7101
  sed 's/{"stage": "detect_card"}/{"stage": "detect_card", "screen_refinement": false}/' \
      bench/cards/geometry.json > bench/work/geometry-off.json
  OMP_THREAD_LIMIT=1 snapsort run bench/work/shots-train --config bench/work/geometry-off.json \
      --out bench/work/off-train --jobs 1 --fresh --quiet
  bench/.venv/bin/python bench/cards/fit_screen_refiner.py bench/work/shots-train bench/work/off-train/records.jsonl \
      [GEN_DIR2 RECORDS2 ...] [--grid '{"step_weight": [null, 20]}']

With several sets, each grid point's count is given per set and in all; the point with the most
in all is printed last as the one chosen.

Measured 2026-11-26 (seed 7101, 200 images; the detector alone: 110 at IoU >= 0.9): the committed
point (reach 0.25, relative 0.2, spread 0.01, tolerance 0.03; above: gap 0.35, widening 0.08,
reach 0.45, weakest step 8) gives 175, the best of the grid; reach 0.15 gives 174, relative 0.35
174, and without the weighting towards the exact aspect (spread 1e9) 165-167. The binary gives
175 as well. With the card also looked for at the top of a quad over 1.25 card heights tall
(as committed now): 179 (binary 179), still the best of the grid (reach 0.15: 178; relative 0.35:
176; spread 1e9: 167-170).

Refitted 2026-11-26 on a new train set (`--split train --seed 8101`, 300 screenshots; the detector
alone: 141 at IoU >= 0.9) over the relative floor, the smallest step and the upright tolerance
(reach 0.25, spread 0.01, tolerance 0.03 held): the previous point (relative 0.2, minimum 4, tilt
1 degree) gives 258; relative 0.05, minimum 6, tilt 2 degrees gives 264, the best of the grid, with
neighbours at 259-263 (relative 0 or 0.1, minimum 4 or 8). The relative floor lost a card's faint
edge (white on a light grey theme, 13 levels) to a band edge inside it (255 levels); a panel's quad
tilted by its shadow's blur by just over a degree was not refined at all. Without the relative floor a
steep shadow ramp (5 levels a pixel) is a row of peaks, so a peak must also be `sharpness` times the
median step two to four pixels either side: at relative 0.05, minimum 6, tilt 2, sharpness 0 / 1.5 /
2 / 3 give 264 / 266 / 266 / 265 (relative 0.2: 259-260). Committed: relative 0.05, minimum 6, tilt
2, sharpness 2. The strip above a panel reaching `into` card heights down into the panel's quad (whose
top may be inside the card's lower edge, blurred by the panel's shadow): into 0 / 0.05 / 0.1 give
266 / 268 / 268; committed 0.05. Tried and left out: where no four steps have the card's aspect, placing a
hidden fourth side (a black card's bottom on a black theme, a card off the screen) from the aspect
of three strong ones: 264-266 whether allowed inside the search box, beyond the image, or both.

Third set, 2026-11-26 (`--split train --seed 8311`, 300 screenshots; the detector alone: 155 at IoU
>= 0.9; the previous point: 267 here, the binary 264). A card running off the left or right screen
edge (12 of the binary's 36 misses) is placed from the aspect when its top, bottom and one side are
steps, the top and bottom steps run to the screen's edge (median over `edge_run` of the screen's
width) and the placed side lies `off_screen` of the card's width beyond it, scored by the area on
the screen: off_screen 0.01 or 0.03 give 270 (edge_run 0.02 / 0.03 / 0.05 alike, in a grid over it), none lost. Without
`off_screen` a texture peak one pixel from the edge placed a side just outside it (a loss).
Committed: off_screen 0.01, edge_run 0.03 (binary: 267). Tried and left out: the strip above a
panel reaching 0.25 card heights into the panel's quad (+1 here, but a band inside the card then
paired with a row of the panel below); and, where the four-sided search above a panel fails, a card
placed from three sides of steps >= `implied` (12 / 30 / 50: +4 / +5 / +4 here, with the placed side
rejected where the two sides meeting it run on past it, `runs_on`): the binary with it changed the
quad of 9 of the 26 Apple-Wallet-style passes (no card rectangle) of held-out seed 7202 and their
colour (ΔE00 < 10) fell from 21 to 13 of 26; train has no passes (that app family is held out), so
this cannot be fitted here.

Fourth fit, 2026-11-26 (seed 8311 as above, and a fresh train set `--split train --seed 8711`, 300
screenshots; the detector alone: 161 at IoU >= 0.9). Of the binary's misses, "panel chosen" is the
largest cause (12 of 33 on 8311, 16 of 38 on 8711). In several the card above the panel has four
clear steps, but the search above took the largest combination of the card's aspect first and
asked for clear steps afterwards: a larger rectangle through the screen's edges (candidates of
zero step) or a row of text won, failed the test, and the card was lost. `strong_first`: only
peaks of at least twice `minimum` take part in the searches above a panel and at the top of a tall
quad. Twin, IoU >= 0.9 (widening 0.08 / 0.15 alike everywhere):

| set | into | without strong_first | with |
|---|---|---|---|
| 8311 | 0.05 / 0.15 / 0.3 | 270 / 270 / 271 | 273 / 274 / 275 |
| 8711 | 0.05 / 0.15 / 0.3 | 264 / 263 / 263 | 269 / 269 / 269 |

The binary with strong_first and into 0.3: 8311 267 -> 271, 8711 262 -> 269; into 0.3 gained one
card whose own shadow above the panel put the panel's quad top a tenth of a card height inside the
card, and lost one where a band inside the card paired with a row of the panel's QR code (card and
panel of one width: their sides run on in one line), the loss noted in the third fit. Committed:
strong_first, into 0.05 (as before), widening 0.08. Tried in the twin and left out: where no four
clear steps have the aspect, one side a step of `minimum` to twice that (a white half of the card
on a light theme): 273 -> 274 on 8311, 269 -> 270 on 8711, too little for the risk to passes.

Fifth fit, 2026-11-27 (seeds 8311 and 8711 as re-rendered with the pass band, 271 and 276 cards; the
detector alone 140 and 150 at IoU >= 0.9; `--grid` replaces grid values). "Panel chosen" is again
the largest cause that held-out apps share (6 + 9 of the binary's 28 + 29 misses; 9 of 37 on a
third train set, seed 8911): most of the cards above those panels have three clear sides and one
of no step (a white foot on a light theme, a black band on a dark one). Passes, the reason the
third fit's placing was left out, are now found and cropped whole by PassFinder before this
matters. `placed_gap` set: where the four-sided search above a panel fails, the card is placed
from the aspect on its left and right sides and one of top or bottom (steps >= `implied`), its
lower edge within `placed_gap` card heights above the panel quad's top and `placed_into` below
it (train truth: the card's foot lies 0.054-0.27 card heights above its panel on all three sets;
the quad's top may lie inside the card's edgeless foot), its sides stepping on `side_run` of its
rows. Twin, IoU >= 0.9, 8311 / 8711: without placing 245 / 248; placing (implied 12 or 20,
side_run 0.3 or 0.5 alike) 248 / 248; the quad's own top never taken for the card's foot
(`own_top` 3 px) 249 / 249; the sides looked for by the step a third of the strip's rows reach
(`side_fraction` 2/3: a card's black band on a dark theme hides its sides over half of them)
249 / 250; and a placed card refused where its sides run on below its foot (`run_on` 0.5: on
train two unmarked passes got a slice of the pass as their card, a band inside it for the foot)
249 / 249. `placed_width` 0.5: the placed card spans at least half the screen's width (train
cards wholly on the screen: 0.70 and more; a word of a title has three sides too: one train card
lost to one). Committed: implied 12 (twice `minimum`), placed_gap 0.35 (as `gap`), placed_into
0.3, side_run 0.3, side_fraction 2/3, own_top 3, run_on 0.5, placed_width 0.5 (the grid over
placed_gap and placed_into was not finished). Of two placed cards of one area (a white foot
below a clear top, or a white top above a clear foot), the one whose foot lies nearer the train
truth's median gap above the panel (`typical_gap` 0.15; 0.141 / 0.145 / 0.151 on 8311 / 8711 /
8911) rather than the higher: twin 249 / 249 either way, binary 8911 520 -> 521.

Sixth fit, 2026-11-27 (seeds 8311, 8711 and 8911 as above; main b793757's binary misses 25 / 27 / 35,
of them 24 partial cards that only `generic_wallet` draws). Listed with the twin's peaks, ten of the
near misses (IoU 0.78-0.89, "glow margin" or "elsewhere", mostly `catima` with a glow or a shadow)
have all four of the card's own sides among the peaks, yet a larger rectangle of the card's aspect
wins: the screen's two edges (candidates of no step, kept for a card flush with or running off the
screen) with the header's lower edge above the card and the card's bottom (or a row below it).
`edge_meets`: a side kept at the screen's edge with no step is taken only where the two sides
across it step on over `edge_run` of the screen next to that edge, as `running_off` asks of a card
running off it. Twin, IoU >= 0.9, 8311 / 8711 / 8911: 249 / 249 / 518 -> 250 / 252 / 521, none
lost; the binary 246 / 249 / 521 -> 247 / 252 / 524, none lost (see bench/gen/README.md). Tried in
the twin and left out: a side may move out by `outward_share` of the quad's height (the detector's
quad stopping short of a faint edge; 0.04 / 0.08: 251 / 249 on 8311, 252 / 252 on 8711, against 250
/ 252); where the refining search finds no four sides, the fourth placed from the aspect of three of
at least 12 or 30 levels (`three_sides`: 247 / 248 on 8311, 245 / 248 on 8711: bands inside cards);
and the panel quad's own top allowed as the placed card's foot when nothing else places one (7 train
misses have the panel's quad start at the card's foot): 250 / 253 / 521, +1 in all, not worth a rule.

Eighth fit, 2026-11-27 (quads10; seeds 8431, 8311, 8711, 8911; issue #25). The lead: held-out quad
misses sit on the dark theme, perhaps a dark card above a panel whose sides step by about 8 levels,
under the 12 (`strong`, twice `minimum`) the search above a panel asks for. `dark_steps.py` logs the
truth card's side steps on main's dark-theme train misses (44 of 1316 cards): 2 have a weakest side
of 8-11 levels and neither is a card above a panel; of the 5 "panel chosen", 4 have a side of 1-4
levels (a card 3-14 levels off a dark theme, as flat as the JPEG noise) and one has four sides of 45
levels or more (the twin finds it, the binary refines the detector's quad elsewhere first). Twin,
IoU >= 0.9, 8431 / 8311 / 8711 / 8911, `strong` 12 / 10 / 8: 193 / 192 / 192, 250 alike, 252 / 252 /
251, 521 alike (6: as 8); `implied` 8 (with strong 12): 193 / 250 / 253 / 521, +1 on one set; both 6: 193 / 249 / 252 /
521. Left as it was: a lower bar lets a band inside the card or a row of the panel take part.

Ninth fit, 2026-11-27 (quads11; seeds 8431, 8311, 8711, 8911; issue #25). In 5 of the 7 `banking`
carousel misses quads10 called "elsewhere" the detector's quad is a piece of the card (its band, its
logo, its barcode), and the refiner only moves sides in. `grow`: a final quad narrower than `grow`
of the screen (train cards wholly on a screen: 0.70 of its width and more) grows out to the largest
rectangle of the card's aspect around it, at least `grow` of the screen wide, whose four sides are
sharp steps of at least `grow_strong` (twice `minimum`), each side's step the median over the
quad's own rows or columns; `grow_spill`: the card's sides may lie that share of the screen's width
inside the quad's (a carousel quad spilling over the card's side into the gap or the next card:
2.4-2.8 % on the three such train misses). Twin, IoU >= 0.9, 8431 / 8311 / 8711 / 8911: without
193 / 250 / 252 / 521; grow 0.5 (0.6 alike) 194 / 250 / 253 / 523; grow 0.5 with spill 0.03 196 /
250 / 253 / 525, none lost on any set. Committed: grow 0.5, grow_strong 12, grow_spill 0.03.

Tenth fit, 2026-11-28 (quads32; train seeds 8631 and a fresh 8741, 300 screenshots each, 219 and
229 cards; issue #25). Main db9f1f5's misses: 16 and 29; "other card chosen" is the largest cause
beside the partial card that only `generic_wallet` draws (2 + 6: a list of the user's cards under
the one shown, the detector's quad on one of them). In four the search above the quad found the
card just above it, itself one of the list, and stopped there. `above_repeat`: a card found above
(four clear sides) is searched above in turn while each lies higher than the last. Twin, IoU >=
0.9, 8631 / 8741: 203 / 200 -> 204 / 203 (1, 10 or 100 rounds alike), none lost; the partial train
set 8411 (118 cards) 107 either way. Tried and left out: `repeat_placed` (a card placed from
three sides above the last card found) gains nothing more; `refine_strong` (the first refining
search with clear steps first, weakest 12, the largest of any steps only where none has the
aspect: a card's glow or shadow edge, or a carousel neighbour's, makes a larger rectangle of the
card's aspect around it) 8631 +2 -0, 8741 +0 -0 (at 20: 8631 +2 -1), too little on one set for a rule.
Committed: above_repeat (no bound: each round moves up the screen).

Eleventh fit, 2026-11-28 (quads32, train only; not committed to the product: the held-out sets
had been scored once already, for the tenth fit). Several margin misses (a glow's, a shadow's or
a carousel neighbour's edge around the card) are a larger rectangle of the card's aspect whose
weakest side steps by 6-10 levels, the card's own sides 24-95; one is a tie of two equal
rectangles on a card printed with a grid, the first found winning. `step_weight`: a combination
scores min(1, weakest step / step_weight) of its area (the screen's edge exempt); `tie_steps`: of
two alike the higher sum of steps. Twin, IoU >= 0.9, with above_repeat, 8631 / 8741 / 8411: none
204 / 203 / 107; tie_steps alone 204 / 204 / 107; step_weight 12 205 / 203 (+ tie 204); 20 205 /
205 (+ tie 206) / 107; 30 205 / 206 (+ tie 207) / 107. 8631 loses one at every weight (a dark
card on a dark theme, its top stepping by 8 and its left by 18, outscored by a rectangle through
its neighbours' edges) and gains two; 8741 gains up to four (margins and a card found above with
a glow). A lead for the next held-out measurement, fitted on a third train set first.

Twelfth fit, 2026-11-28 (quads33; train seeds 8631, 8741, 8411 and a fresh 8851, `--split train
--seed 8851 --count 300`, 221 cards; the sets are given together, GEN_DIR RECORDS pairs, and the
point with the most quads over all of them is chosen, the first in the grid's order of equals).
Grid step_weight none / 12 / 20 / 30 / 50, tie_steps off / on, with above_repeat; IoU >= 0.9,
8631 / 8741 / 8411 / 8851 (all of 787): none 204 / 203 / 107 / 210 (724); tie alone 204 / 204 /
107 / 210 (725); 12 205 / 203 / 107 / 210 (725; + tie 726); 20 205 / 205 / 107 / 210 (727; + tie
206 on 8741, 728); 30 205 / 206 / 107 / 209 (727; + tie 207, 728); 50 205 / 207 / 107 / 208 (727,
tie alike). The new set gains nothing and loses one at 30 and two at 50 (cards whose own weakest
side steps by under 30 levels). Chosen, and committed as `ScreenCardRefiner.stepWeight`: 20 with
tie_steps (728, the first of the two at 728; none of the four sets below none).
"""
import argparse, itertools, json, math, os, sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gen"))
from score_cards import iou  # noqa: E402

ASPECT = 85.60 / 53.98


def steps(img):
    a = img.astype(np.int16)
    return np.abs(a[:, 1:] - a[:, :-1]).max(axis=2), np.abs(a[1:] - a[:-1]).max(axis=2)


def median_step(v, h, vertical, position, span, fraction=0.5):
    """The median step across the pixel edge at `position` over `span`; with `fraction`, the
    step that share of the span's pixels is at most (2/3: the step a third of them reach)."""
    plane = v if vertical else h
    limit = plane.shape[1] if vertical else plane.shape[0]
    if position < 1 or position > limit:
        return 0
    values = plane[span[0]:span[1], position - 1] if vertical else plane[position - 1, span[0]:span[1]]
    return int(np.sort(values)[max(0, math.ceil(fraction * len(values)) - 1)]) if len(values) else 0


def peaks(v, h, side, box, reach, p, fraction=0.5):
    x0, y0, x1, y1 = box
    vertical = side in "lr"
    bw, bh = x1 - x0, y1 - y0
    inward = max(8, int(reach * bh))
    centre = int(round({"l": x0, "r": x1, "t": y0, "b": y1}[side]))
    sign = 1 if side in "lt" else -1
    lo, hi = centre + min(-sign * p["outward"], sign * inward), centre + max(-sign * p["outward"], sign * inward)
    span = (y0 + 0.3 * bh, y0 + 0.7 * bh) if vertical else (x0 + 0.3 * bw, x0 + 0.7 * bw)
    size_along = v.shape[0] if vertical else h.shape[1]
    span = (max(0, int(span[0])), min(size_along, int(span[1])))
    limit = v.shape[1] + 1 if vertical else h.shape[0] + 1
    positions = list(range(lo, hi + 1))
    s = [median_step(v, h, vertical, q, span, fraction if vertical else 0.5) for q in positions]
    floor = max(p["minimum"], math.ceil(p["relative"] * max(s or [0])))
    def sharp(i):
        # A step, not a stretch of a shadow's ramp: well above the steps two to four pixels away.
        around = sorted(s[j] for j in (i - 4, i - 3, i - 2, i + 2, i + 3, i + 4) if 0 <= j < len(s))
        return not around or s[i] >= p["sharpness"] * around[(len(around) - 1) // 2]
    found = [(positions[i], s[i]) for i in range(len(s))
             if s[i] >= floor and s[i] >= (s[i - 1] if i else 0) and s[i] >= (s[i + 1] if i + 1 < len(s) else 0)
             and sharp(i)]
    if not found or centre <= 1 or centre >= limit - 1:
        found.append((centre, 0))
    return found


def running_off(v, h, c, p):
    """A card running off the left or right screen edge: top, bottom and the side on the screen
    are steps, the other side placed from the aspect beyond the edge, where the top and bottom
    steps run to; scored by the area on the screen."""
    screen = v.shape[1] + 1
    run = max(2, int(p["edge_run"] * screen))
    best = None
    for t, b in itertools.product(c["t"], c["b"]):
        if b[0] <= t[0] or t[1] < p["minimum"] or b[1] < p["minimum"]:
            continue
        width = int(round(ASPECT * (b[0] - t[0])))
        beyond = p["off_screen"] * width
        def reaches(x0, x1):
            return min(median_step(v, h, False, t[0], (x0, x1)), median_step(v, h, False, b[0], (x0, x1))) >= p["minimum"]
        for r in c["r"]:
            score = r[0] * (b[0] - t[0])
            if r[1] >= p["minimum"] and r[0] - width < -beyond and (best is None or score > best[0]) and reaches(0, run):
                best = (score, (r[0] - width, t[0], r[0], b[0]), 0)
        for l in c["l"]:
            score = (screen - l[0]) * (b[0] - t[0])
            if l[1] >= p["minimum"] and l[0] + width - screen > beyond and (best is None or score > best[0]) \
                    and reaches(screen - run, screen):
                best = (score, (l[0], t[0], l[0] + width, b[0]), 0)
    return best


def search(v, h, box, reach, p, running=False, weakest=0):
    """The best card-aspect combination of one peak per side; only peaks of at least `weakest`
    take part (a search above a panel asks for clear steps on all four sides)."""
    if box[2] - box[0] < 32 or box[3] - box[1] < 20:
        return None
    c = {side: [q for q in peaks(v, h, side, box, reach, p) if q[1] >= weakest] for side in "ltrb"}
    best = None
    for l, r, t, b in itertools.product(c["l"], c["r"], c["t"], c["b"]):
        if r[0] <= l[0] or b[0] <= t[0]:
            continue
        w, hh = r[0] - l[0], b[0] - t[0]
        e = abs(w / hh / ASPECT - 1)
        if e > p["tolerance"]:
            continue
        if p.get("edge_meets") and not edges_met(v, h, l, t, r, b, p):
            continue
        score = w * hh * math.exp(-(e / p["spread"]) ** 2)
        weakest_step = min(l[1], t[1], r[1], b[1])
        # `step_weight` (committed at 20 with tie_steps: twelfth fit): a combination whose weakest
        # side steps by less than this many levels scores that share less (the screen's edge, of
        # no step, exempt); `tie_steps`: of two alike, the one whose four steps sum higher.
        if p.get("step_weight") and weakest_step > 0:
            score *= min(1.0, weakest_step / p["step_weight"])
        tie = l[1] + t[1] + r[1] + b[1] if p.get("tie_steps") else 0
        if best is None or (score, tie) > (best[0], best[3]):
            best = (score, (l[0], t[0], r[0], b[0]), weakest_step, tie)
    if running and p.get("off_screen") is not None:
        off = running_off(v, h, c, p)
        if off and off[0] > (best[0] if best else 0):
            best = off + (0,)
    return best and best[1:3]


def edges_met(v, h, l, t, r, b, p):
    """A side kept at the screen's edge with no step of its own (a card flush with or running off
    that edge) is met there by the two sides across it: their steps run on over `edge_run` of the
    screen next to that edge. A card inside the screen, its glow or shadow fading out before the
    edge, has its own sides for that."""
    width, height = v.shape[1] + 1, h.shape[0] + 1
    def reaches(a, b_, vertical, span):
        return min(median_step(v, h, vertical, a[0], span), median_step(v, h, vertical, b_[0], span)) >= p["minimum"]
    run_x, run_y = max(2, int(p["edge_run"] * width)), max(2, int(p["edge_run"] * height))
    if l[1] == 0 and l[0] <= 1 and not reaches(t, b, False, (0, run_x)):
        return False
    if r[1] == 0 and r[0] >= width - 1 and not reaches(t, b, False, (width - run_x, width)):
        return False
    if t[1] == 0 and t[0] <= 1 and not reaches(l, r, True, (0, run_y)):
        return False
    if b[1] == 0 and b[0] >= height - 1 and not reaches(l, r, True, (height - run_y, height)):
        return False
    return True


def runs_on(v, h, l, t, r, b, placed, p):
    """The two sides meeting the placed side are still steps 3 to 12 % of the size past it."""
    if placed in "tb":
        hh = b - t
        lo, hi = (b + int(0.03 * hh), b + int(0.12 * hh)) if placed == "b" else (t - int(0.12 * hh), t - int(0.03 * hh))
        if lo < 0 or hi > v.shape[0]:
            return False
        return min(median_step(v, h, True, l, (lo, hi)), median_step(v, h, True, r, (lo, hi))) >= p["minimum"]
    ww = r - l
    lo, hi = (r + int(0.03 * ww), r + int(0.12 * ww)) if placed == "r" else (l - int(0.12 * ww), l - int(0.03 * ww))
    if lo < 0 or hi > h.shape[1]:
        return False
    return min(median_step(v, h, False, t, (lo, hi)), median_step(v, h, False, b, (lo, hi))) >= p["minimum"]


def three_sides(v, h, box, reach, p):
    """The largest card-aspect rectangle three of whose sides are peaks of at least `implied`, the
    fourth placed from the aspect (a white card's side on a white theme has no step)."""
    if box[2] - box[0] < 32 or box[3] - box[1] < 20:
        return None
    c = {side: [q[0] for q in peaks(v, h, side, box, reach, p) if q[1] >= p["implied"]] for side in "ltrb"}
    best = None
    def consider(l, t, r, b, placed):
        nonlocal best
        if r > l and b > t and (best is None or (r - l) * (b - t) > best[0]) and not runs_on(v, h, l, t, r, b, placed, p):
            best = ((r - l) * (b - t), (l, t, r, b))
    for l, r in itertools.product(c["l"], c["r"]):
        if r > l:
            hh = int(round((r - l) / ASPECT))
            for t in c["t"]:
                consider(l, t, r, t + hh, "b")
            for b in c["b"]:
                consider(l, b - hh, r, b, "t")
    for t, b in itertools.product(c["t"], c["b"]):
        if b > t:
            ww = int(round((b - t) * ASPECT))
            for l in c["l"]:
                consider(l, t, l + ww, b, "r")
            for r in c["r"]:
                consider(r - ww, t, r, b, "l")
    return best and best[1]


def row_share(v, x, rows, least):
    """The share of `rows` (y0, y1) where the pixel edge at column `x` steps by `least` or more."""
    y0, y1 = max(0, rows[0]), min(v.shape[0], rows[1])
    if x < 1 or x > v.shape[1] or y1 <= y0:
        return 0.0
    return float(np.mean(v[y0:y1, x - 1] >= least))


def placed_above(v, h, above, top, reach, p):
    """The card above a panel with one of its top and bottom sides of no step (a white half of the
    card on a light theme, a black band on a dark one): its left and right sides and the other of
    top and bottom steps of at least `implied`, the missing side placed from the aspect, its lower
    edge between `placed_gap` card heights above the panel quad's top and `placed_into` below it,
    its left and right steps running down `side_run` of its rows."""
    fraction = p.get("side_fraction", 0.5)
    c = {side: [q[0] for q in peaks(v, h, side, above, reach, p, fraction) if q[1] >= p["implied"]] for side in "ltrb"}
    # The quad's own top is the panel's top or a band inside the card, never the card's foot.
    bottoms = [b for b in c["b"] if abs(b - top) > p.get("own_top", -1)]
    best = None
    for l, r in itertools.product(c["l"], c["r"]):
        if r <= l or r - l < p.get("placed_width", 0) * (v.shape[1] + 1):
            continue
        hh = int(round((r - l) / ASPECT))
        for t, b in [(t, t + hh) for t in c["t"]] + [(b - hh, b) for b in bottoms]:
            if t < 0 or not (top - p["placed_gap"] * hh <= b <= top + p["placed_into"] * hh):
                continue
            rows = (t + int(0.1 * hh), b - int(0.1 * hh))
            run = min(row_share(v, l, rows, p["implied"]), row_share(v, r, rows, p["implied"]))
            if run < p["side_run"]:
                continue
            # A card's sides end at its foot; a pass's (or a panel's) run on below a band inside it.
            past = (b + max(1, int(0.01 * hh)), b + max(2, int(0.04 * hh)))
            if p.get("run_on") and min(row_share(v, l, past, p["implied"]), row_share(v, r, past, p["implied"])) >= p["run_on"]:
                continue
            # Of two alike, the one whose foot lies the typical gap above the panel (train truth's
            # median, `typical_gap` card heights); without it, the higher.
            key = ((r - l) * hh, -abs(top - b - p["typical_gap"] * hh) if p.get("typical_gap") is not None else -t)
            if best is None or key > best[0]:
                best = (key, (l, t, r, b))
    return best and best[1]


def outward_peaks(plane, lo, hi, p):
    """Positions in [lo, hi] where the step profile `plane` (one median per pixel edge) peaks at
    `strong` or more, sharply (as `peaks` asks)."""
    found = []
    for q in range(max(1, lo), min(len(plane), hi) + 1):
        s = plane[q - 1]
        if s < p["grow_strong"] or s < (plane[q - 2] if q >= 2 else 0) or s < (plane[q] if q < len(plane) else 0):
            continue
        around = sorted(plane[j - 1] for j in (q - 4, q - 3, q - 2, q + 2, q + 3, q + 4) if 1 <= j <= len(plane))
        if not around or s >= p["sharpness"] * around[(len(around) - 1) // 2]:
            found.append(q)
    return found


def grow(v, h, box, p):
    """A quad narrower than `grow` of the screen is a piece of a card (its band, logo or barcode):
    the card is the largest rectangle of the card's aspect around it whose four sides are strong
    steps, at least `grow` of the screen wide; its sides may lie up to `grow_spill` of the screen's
    width inside the quad's (a carousel's quad spilling over the card's side into the next card). Each side's step is the median over the
    quad's own span (the card holds the quad, so its sides run along it)."""
    width = v.shape[1] + 1
    x0, y0, x1, y1 = [int(round(c)) for c in box]
    if x1 - x0 >= p["grow"] * width or x1 <= x0 or y1 <= y0:
        return None
    tallest, spill = int(width / ASPECT), int(p.get("grow_spill", 0) * width)
    # The lower median, as ScreenCardRefiner.medianStep takes it.
    k = math.ceil(0.5 * (y1 - y0)) - 1
    cols = np.partition(v[y0:y1, :], k, axis=0)[k]
    k = math.ceil(0.5 * (x1 - x0)) - 1
    rows = np.partition(h[:, x0:x1], k, axis=1)[:, k]
    c = {"l": outward_peaks(cols, 1, x0 + spill, p), "r": outward_peaks(cols, x1 - spill, width - 1, p),
         "t": outward_peaks(rows, y1 - tallest, y0 + spill, p), "b": outward_peaks(rows, y1 - spill, y0 + tallest, p)}
    best = None
    for l, r in itertools.product(c["l"], c["r"]):
        if r - l < p["grow"] * width:
            continue
        for t, b in itertools.product(c["t"], c["b"]):
            e = abs((r - l) / (b - t) / ASPECT - 1)
            if e > p["tolerance"]:
                continue
            score = (r - l) * (b - t) * math.exp(-(e / p["spread"]) ** 2)
            if best is None or score > best[0]:
                best = (score, (l, t, r, b))
    return best and best[1]


def refine(v, h, quad, p):
    xs, ys = [q[0] for q in quad], [q[1] for q in quad]
    box = (min(xs), min(ys), max(xs), max(ys))
    # `refine_strong`: clear steps first, as the searches above a panel and at the top of a tall
    # quad ask; the largest combination of any steps only where no clear one has the aspect.
    found = p.get("refine_strong") and search(v, h, box, p["reach"], p, running=True, weakest=p["refine_strong"])
    found = found or search(v, h, box, p["reach"], p, running=True)
    if found:
        box = found[0]
    x0, y0, x1, _ = box
    width = x1 - x0
    height = width / ASPECT
    above = (max(0, x0 - p["widening"] * width), max(0, y0 - (p["gap"] + 1.15) * height),
             min(v.shape[1] + 1, x1 + p["widening"] * width), y0 - 2 + p.get("into", 0) * height)
    # `strong`: the least step of each side of a card found above a panel (twice `minimum`).
    clear = p.get("strong") or 2 * p["minimum"]
    strong = clear if p.get("strong_first") else 0
    if above[3] - above[1] > 0.6 * height:
        card = search(v, h, above, p["above_reach"], p, weakest=strong)
        if card and card[1] >= clear:
            box = card[0]
            # `above_repeat`: a card found above is searched above in turn (a list of the user's
            # cards under the one shown, the detector's quad on one of them), while each lies
            # higher than the last.
            for _ in range(p.get("above_repeat") or 0):
                x0, y0, x1, _ = box
                width = x1 - x0
                height = width / ASPECT
                above = (max(0, x0 - p["widening"] * width), max(0, y0 - (p["gap"] + 1.15) * height),
                         min(v.shape[1] + 1, x1 + p["widening"] * width), y0 - 2 + p.get("into", 0) * height)
                if above[3] - above[1] <= 0.6 * height:
                    break
                card = search(v, h, above, p["above_reach"], p, weakest=strong)
                if not card or card[1] < clear or card[0][1] >= y0:
                    # `repeat_placed`: or a card with one of its top and bottom of no step above it.
                    if p.get("repeat_placed") and not card:
                        box = placed_above(v, h, above, y0, p["above_reach"], p) or box
                    break
                box = card[0]
        elif p.get("implied") and p.get("placed_gap") is not None:
            box = placed_above(v, h, above, y0, p["above_reach"], p) or box
        elif p.get("implied"):
            box = three_sides(v, h, above, p["above_reach"], p) or box
    x0, y0, x1, y1 = box
    height = (x1 - x0) / ASPECT
    if y1 - y0 > p["tallness"] * height:
        card = search(v, h, (x0, y0, x1, min(y1, y0 + 1.3 * height)), p["above_reach"], p, weakest=strong)
        if card and card[1] >= 2 * p["minimum"]:
            box = card[0]
    if p.get("grow"):
        box = grow(v, h, box, p) or box
    l, t, r, b = box
    return [[l, t], [r, t], [r, b], [l, b]]


def upright(quad, tilt=1.0):
    for k in range(4):
        (ax, ay), (bx, by) = quad[k], quad[(k + 1) % 4]
        dx, dy = abs(bx - ax), abs(by - ay)
        if min(dx, dy) > math.tan(math.radians(tilt)) * max(dx, dy):
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", metavar="GEN_DIR RECORDS",
                    help="one or more pairs: a train render folder and the records.jsonl of detect_card "
                         "with screen_refinement false on it")
    ap.add_argument("--grid", help="JSON object of grid values replacing the committed grid's (lists)")
    args = ap.parse_args()
    if len(args.sets) % 2:
        ap.error("give GEN_DIR RECORDS pairs")
    pairs = list(zip(args.sets[0::2], args.sets[1::2]))
    items = []
    for gen_dir, path in pairs:
        records = {}
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            records[os.path.basename(r["file"])] = (r.get("card") or {}).get("quad")
        for fn in sorted(os.listdir(gen_dir)):
            if fn.endswith(".json"):
                t = json.load(open(os.path.join(gen_dir, fn), encoding="utf-8"))
                if t.get("split") != "train":
                    sys.exit(f"{fn}: split {t.get('split')}: fit on train renders only")
                if t.get("quad"):
                    items.append((t, records.get(t["file"]), gen_dir))
    grid = {"reach": [0.25], "relative": [0.05], "spread": [0.01], "tolerance": [0.03],
            "minimum": [6], "tilt": [2.0], "sharpness": [2], "into": [0.05],
            "off_screen": [0.01], "edge_run": [0.03], "implied": [None, 12], "strong_first": [True],
            "widening": [0.08], "placed_gap": [0.35], "placed_into": [0.3], "side_run": [0.3],
            "side_fraction": [0.667], "own_top": [3], "run_on": [0.5], "placed_width": [0.5],
            "typical_gap": [0.15], "edge_meets": [True], "strong": [None],
            "grow": [0.5], "grow_strong": [12], "grow_spill": [0.03], "refine_strong": [None], "above_repeat": [100], "repeat_placed": [None],
            "step_weight": [20], "tie_steps": [True]}
    if args.grid:
        grid.update(json.loads(args.grid))
    fixed = {"outward": 3, "gap": 0.35, "above_reach": 0.45, "tallness": 1.25}
    before = sum(bool(q) and iou(t["quad"], q) >= 0.9 for t, q, _ in items)
    shares = sorted((max(x for x, _ in t["quad"]) - min(x for x, _ in t["quad"])) / t["width"]
                    for t, _, _ in items if not t.get("main_partial"))
    print(f"card width / screen width (cards wholly on the screen): smallest {shares[0]:.2f}, median {shares[len(shares) // 2]:.2f}")
    gaps = []
    for t, _, _ in items:
        ys, panel = [y for _, y in t["quad"]], t.get("panel_box")
        height = (max(x for x, _ in t["quad"]) - min(x for x, _ in t["quad"])) / ASPECT
        if panel and panel[1] >= max(ys) - 0.5 * height:
            gaps.append((panel[1] - max(ys)) / height)
    if gaps:
        gaps.sort()
        print(f"gap card foot -> panel top, card heights ({len(gaps)}): {gaps[0]:.3f} to {gaps[-1]:.3f}, "
              f"median {gaps[len(gaps) // 2]:.3f}")
    print(f"{len(items)} train screenshots with a card quad; detector alone: {before} at IoU >= 0.9")
    points = [dict(zip(grid, values), **fixed) for values in itertools.product(*grid.values())]
    hits = [[0] * len(pairs) for _ in points]
    changed = [[] for _ in points]
    # Image by image (the step planes of 200 screenshots do not fit in memory at once).
    for t, q, gen_dir in items:
        s = [g for g, _ in pairs].index(gen_dir)
        planes = None
        for k, p in enumerate(points):
            found = q
            if q and upright(q, p["tilt"]):
                if planes is None:
                    planes = steps(np.asarray(Image.open(os.path.join(gen_dir, t["file"])).convert("RGB")))
                found = refine(*planes, q, p)
            hit = bool(found) and iou(t["quad"], found) >= 0.9
            hits[k][s] += hit
            if k == 0:
                first = hit
            elif hit != first:
                changed[k].append(("+" if hit else "-") + os.path.basename(gen_dir.rstrip("/")) + "/" + t["file"])
    sizes = [sum(g == gen_dir for _, _, g in items) for gen_dir, _ in pairs]
    for p, n, files in zip(points, hits, changed):
        per_set = " / ".join(f"{a}/{b}" for a, b in zip(n, sizes))
        print(json.dumps({key: p[key] for key in grid}), per_set, f"(all {sum(n)}/{len(items)})")
        if files:
            print("  against the first point:", " ".join(files))
    # The point chosen: the most quads at IoU >= 0.9 over all the sets together; of points alike,
    # the first in the grid's order (the committed value first, then the smaller change).
    best = max(range(len(points)), key=lambda k: (sum(hits[k]), -k))
    print("chosen (most over all sets, the first of equals):",
          json.dumps({key: points[best][key] for key in grid if len(grid[key]) > 1}), f"{sum(hits[best])}/{len(items)}")

if __name__ == "__main__":
    main()
