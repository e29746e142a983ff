// The map's counters on one canvas (strategia/ui/widgets/units_layer.py).
//
// The kernel sends one compact record a counter (counters.counter_records), then only the
// records that changed, each message numbered; the records are kept once a model, and every
// view of it draws them. A view finds the Leaflet map its `toggle` layer group belongs to and
// puts a canvas renderer (Leaflet's own L.Canvas: its panes, padding, zoom animation) into that
// group, so the layers control shows and hides it. The renderer draws every counter in view
// with `look` (counters.look), answers a click or a hover on a counter with its key, and lets
// the tests read what it drew: canvas.sg-units has `sgCounters()` (each counter drawn, with
// its box on the screen) and `sgCounterAt(x, y)` (the counter at a point of the screen).

// a layer's records, by its `toggle` (anywidget gives each call its own proxy of the model)
const KEPT = new Map(); // toggle's model id -> {rev, units: Map(key -> record), corps, layers}

function kept(model) {
  const id = modelId(model.get("toggle"));
  let st = KEPT.get(id);
  if (!st) {
    st = { rev: -1, units: new Map(), corps: [], layers: new Set() };
    KEPT.set(id, st);
  }
  return st;
}

function receive(model, st, msg) {
  if (msg.type === "all") {
    st.units = new Map(msg.units.map((u) => [u.k, u]));
    st.corps = msg.corps;
    st.rev = msg.rev;
  } else if (msg.type === "changes") {
    if (msg.base !== st.rev) {
      model.send({ type: "ready", rev: st.rev }); // a change missed: ask for everything
      return;
    }
    for (const k of msg.gone) st.units.delete(k);
    for (const u of msg.set) st.units.set(u.k, u);
    if (msg.corps) st.corps = msg.corps;
    st.rev = msg.rev;
  } else {
    return;
  }
  for (const layer of st.layers) layer.redrawUnits();
}

function modelId(ref) {
  return typeof ref === "string" && ref.startsWith("IPY_MODEL_") ? ref.slice(10) : ref;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// the Leaflet layer group of `toggle` in the map that holds `el` (a control of that map)
async function groupOf(model, el, signal) {
  const group = await model.widget_manager.get_model(modelId(model.get("toggle")));
  for (let i = 0; i < 1200 && !signal.aborted; i++) {
    const views = await Promise.all(Object.values(group.views || {}));
    for (const view of views) {
      const map = view.map_view;
      if (view.obj && map && map.obj && map.el && map.el.contains(el)) return [view.obj, map.obj];
    }
    await pause(50);
  }
  return [null, null];
}

function makeLayer(L) {
  return L.Canvas.extend({
    initialize(model, st, look) {
      L.Canvas.prototype.initialize.call(this, { padding: 0.3, pane: "sgUnits" });
      this._model = model;
      this._st = st;
      this._look = look;
      this._hovered = null;
      this._drawn = [];
    },

    onAdd(map) {
      if (!map.getPane("sgUnits")) {
        const pane = map.createPane("sgUnits");
        pane.style.zIndex = 450; // over the overlays (reach, fights), under the markers
        pane.style.pointerEvents = "none"; // the map takes every click and hover
      }
      L.Canvas.prototype.onAdd.call(this, map);
      this._container.classList.add("sg-units");
      this._container.sgCounters = () => this.counters();
      this._container.sgCounterAt = (x, y) => this.counterAt(x, y);
      map.on("preclick", this._click, this);
      map.on("mousemove", this._move, this);
      map.on("mouseout", this._out, this);
      this._st.layers.add(this);
      this.redrawUnits();
    },

    onRemove(map) {
      this._st.layers.delete(this);
      map.off("preclick", this._click, this);
      map.off("mousemove", this._move, this);
      map.off("mouseout", this._out, this);
      this._out();
      L.Canvas.prototype.onRemove.call(this, map);
    },

    redrawUnits() {
      if (this._map && this._ctx && !this._map._animatingZoom) this._redraw();
    },

    _draw() {
      L.Canvas.prototype._draw.call(this);
      this._drawUnits();
    },

    _frame() {
      const map = this._map;
      const o = map.latLngToLayerPoint([0, 0]);
      return { ox: o.x, oy: o.y, s: map.getZoomScale(map.getZoom(), 0) };
    },

    _drawUnits() {
      const ctx = this._ctx, look = this._look, b = this._bounds;
      if (!ctx || !b) return;
      const { ox, oy, s } = this._frame();
      const X = (x) => ox + x * s, Y = (y) => oy - y * s;
      const half = look.half;
      ctx.save();
      ctx.lineJoin = "round";
      ctx.lineCap = "round";
      // the corps' outlines, beneath the counters (4.7)
      ctx.strokeStyle = look.corps[0];
      ctx.lineWidth = look.corps[1];
      ctx.setLineDash(look.corps[2]);
      for (const [x0, y0, x1, y1] of this._st.corps) {
        ctx.strokeRect(X(x0), Y(y1), (x1 - x0) * s, (y1 - y0) * s);
      }
      ctx.setLineDash([]);
      const drawn = [];
      const lines = (list, x, y, k, dx = 0, dy = 0) => {
        for (const line of list) {
          line.forEach(([a, c], i) => {
            const px = X(x + dx + a * k), py = Y(y + dy + c * k);
            if (i === 0) ctx.moveTo(px, py);
            else ctx.lineTo(px, py);
          });
        }
      };
      for (const u of this._st.units.values()) {
        const x = u.c[0], y = u.c[1];
        const px = X(x), py = Y(y);
        if (px < b.min.x - 2 * s || px > b.max.x + 2 * s || py < b.min.y - 2 * s || py > b.max.y + 2 * s) {
          continue;
        }
        drawn.push(u);
        // the counter: a square over its cell, or its outline over several
        ctx.beginPath();
        if (u.r) {
          u.r.forEach(([a, c], i) => (i === 0 ? ctx.moveTo(X(a), Y(c)) : ctx.lineTo(X(a), Y(c))));
          ctx.closePath();
        } else {
          ctx.rect(X(x - half), Y(y + half), 2 * half * s, 2 * half * s);
        }
        ctx.globalAlpha = look.fill_opacity;
        ctx.fillStyle = look.colours[u.s] || look.unknown;
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.strokeStyle = u.sel ? look.chosen : look.edge[0];
        ctx.lineWidth = u.sel ? 3 : look.edge[1];
        ctx.stroke();
        // its marks: the arm's symbol, the number, the formation
        ctx.beginPath();
        const symbol = look.symbols[u.t];
        if (symbol) lines(symbol, x, y, 1, look.symbol_at[0], look.symbol_at[1]);
        if (u.n) {
          const w = u.h / 2;
          for (let i = 0; i < u.n.length; i++) {
            const digit = look.digits[u.n[i]];
            if (digit) {
              lines(digit, x, y, w, look.digits_at[0] + i * w * look.digit_advance, look.digits_at[1]);
            }
          }
        }
        if (u.m & 1) lines(look.supporting, x, y, 1);
        if (u.m & 2) lines(look.front_line, x, y, 1);
        ctx.strokeStyle = look.ink[0];
        ctx.lineWidth = look.ink[1];
        ctx.stroke();
        // the strength bar
        if (u.q !== null && u.q !== undefined) {
          const [left, bottom, full, tall] = look.bar;
          ctx.globalAlpha = look.bar_fill[1];
          ctx.fillStyle = look.bar_fill[0];
          ctx.fillRect(X(x + left), Y(y + bottom + tall), full * u.q * s, tall * s);
          ctx.globalAlpha = 1;
        }
        // the side it faces
        if (u.d) {
          const [near, far, width] = look.facing;
          ctx.beginPath();
          ctx.moveTo(X(x + near * u.d[0]), Y(y + near * u.d[1]));
          ctx.lineTo(X(x + far * u.d[0]), Y(y + far * u.d[1]));
          ctx.strokeStyle = u.sel ? look.chosen : look.facing_ink;
          ctx.lineWidth = width;
          ctx.stroke();
        }
      }
      ctx.restore();
      this._drawn = drawn;
      this._container.dataset.count = String(this._st.units.size);
      this._container.dataset.drawn = String(drawn.length);
      this._container.dataset.rev = String(this._st.rev);
    },

    // the counter under a point of the map (the last drawn on top), or null
    _find(latlng) {
      const x = latlng.lng, y = latlng.lat, half = this._look.half;
      const units = Array.from(this._st.units.values());
      for (let i = units.length - 1; i >= 0; i--) {
        const u = units[i];
        if (u.r ? inside(u.r, x, y) : Math.abs(x - u.c[0]) <= half && Math.abs(y - u.c[1]) <= half) {
          return u;
        }
      }
      return null;
    },

    _click(e) {
      const u = this._find(e.latlng);
      if (u) this._model.send({ type: "click", key: u.k });
    },

    _move(e) {
      const u = this._find(e.latlng);
      const key = u ? u.k : null;
      if (key === this._hovered) return;
      this._hovered = key;
      this._map.getContainer().style.cursor = u ? "pointer" : "";
      if (u) this._model.send({ type: "hover", key });
    },

    _out() {
      this._hovered = null;
      if (this._map) this._map.getContainer().style.cursor = "";
    },

    // for the tests: each counter drawn, its key, side and box on the screen
    counters() {
      const map = this._map, half = this._look.half;
      if (!map) return [];
      const box = map.getContainer().getBoundingClientRect();
      return this._drawn.map((u) => {
        let xs = [], ys = [];
        if (u.r) {
          xs = u.r.map((p) => p[0]);
          ys = u.r.map((p) => p[1]);
        } else {
          xs = [u.c[0] - half, u.c[0] + half];
          ys = [u.c[1] - half, u.c[1] + half];
        }
        const a = map.latLngToContainerPoint([Math.max(...ys), Math.min(...xs)]);
        const z = map.latLngToContainerPoint([Math.min(...ys), Math.max(...xs)]);
        return {
          key: u.k, side: u.s, cells: u.c, strength: u.q, selected: u.sel,
          left: box.left + a.x, top: box.top + a.y, width: z.x - a.x, height: z.y - a.y,
        };
      });
    },

    counterAt(clientX, clientY) {
      const map = this._map;
      if (!map) return null;
      const box = map.getContainer().getBoundingClientRect();
      const u = this._find(map.containerPointToLatLng([clientX - box.left, clientY - box.top]));
      return u ? { key: u.k, side: u.s, cells: u.c, strength: u.q, selected: u.sel } : null;
    },
  });
}

function inside(ring, x, y) {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x0, y0] = ring[i], [x1, y1] = ring[j];
    if (y0 > y !== y1 > y && x < x0 + ((y - y0) * (x1 - x0)) / (y1 - y0)) hit = !hit;
  }
  return hit;
}

// the map's own controls in the page's language: Leaflet titles its layers control "Layers"
// whatever the page speaks (the zoom buttons' titles are the kernel's: ipyleaflet's ZoomControl)
async function nameControls(map, words, signal) {
  if (!words.layers) return;
  for (let i = 0; i < 100 && !signal.aborted; i++) {
    const toggle = map.getContainer().querySelector(".leaflet-control-layers-toggle");
    if (toggle) {
      toggle.title = words.layers;
      toggle.setAttribute("aria-label", words.layers);
      return;
    }
    await pause(50);
  }
}

let Layer = null;

export default {
  initialize({ model }) {
    const st = kept(model);
    model.on("msg:custom", (msg) => receive(model, st, msg));
    model.send({ type: "ready", rev: st.rev });
  },

  async render({ model, el }) {
    const st = kept(model);
    const abort = new AbortController();
    const [group, map] = await groupOf(model, el, abort.signal);
    if (!group || !window.L) return () => abort.abort();
    nameControls(map, model.get("words") || {}, abort.signal);
    Layer = Layer || makeLayer(window.L);
    const layer = new Layer(model, st, model.get("look"));
    group.addLayer(layer);
    return () => {
      abort.abort();
      group.removeLayer(layer);
    };
  },
};
