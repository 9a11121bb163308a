// SPDX-License-Identifier: GPL-2.0-only
/* perfev flame graph: the page's script (embedded by scripts/embed.sh into
 * every `perfev convert --to html` file).  It reads the profile from the
 * #fg-data element (format: cli/convert_html.c), builds the view the
 * controls ask for (threads merged by command, one tower per thread, or
 * one thread; on-CPU, off-CPU or both; a differential graph's widths) as
 * a prefix tree in typed arrays, and draws it on a canvas, skipping the
 * subtrees narrower than half a pixel, so that a million frames stay
 * responsive.  No request leaves the page.
 *
 * window.__flamegraph is the documented hook for tests and scripts
 * (perfev-flamegraph(1), SCRIPTING): rects(), width(), search(), zoom(), reset(),
 * set(), state(). */
'use strict';
(function () {
	const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
	const KINDS = ['user', 'kernel', 'jit', 'inline', 'thread', 'comm', 'root'];
	const K_THREAD = 4, K_COMM = 5, K_ROOT = 6;
	const ROW = 17, MIN_W = 0.5, FONT = '12px ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';
	const $ = (id) => document.getElementById(id);

	const data = JSON.parse($('fg-data').textContent);
	const S = data.series, strings = data.strings;

	/* unsigned varints, 5 bits a digit, low groups first (convert_html.c) */
	function decoder(str) {
		const val = new Int8Array(128).fill(-1);
		for (let i = 0; i < 64; i++)
			val[DIGITS.charCodeAt(i)] = i;
		let pos = 0;
		return function next() {
			let v = 0, mul = 1;
			for (;;) {
				const d = val[str.charCodeAt(pos++)];
				if (!(d >= 0))
					throw new Error('the flame graph data is damaged at ' + (pos - 1));
				v += (d & 31) * mul;
				if (!(d & 32))
					return v;
				mul *= 32;
			}
		};
	}

	/* functions: the file's, then one per command (merged threads), then "all" */
	const fname = [], fdso = [], fkind = [];
	{
		const next = decoder(data.funcs);
		for (let i = 0; i < data.nfuncs; i++) {
			fname.push(strings[next()]);
			const d = next();
			fdso.push(d ? strings[d - 1] : '');
			fkind.push(next());
		}
	}
	const commFunc = new Map();
	for (let i = 0; i < data.nfuncs; i++)
		if (fkind[i] === K_THREAD && !commFunc.has(fname[i])) {
			commFunc.set(fname[i], fname.length);
			fname.push(fname[i]); fdso.push(''); fkind.push(K_COMM);
		}
	const ROOT_FUNC = fname.length;
	fname.push('all'); fdso.push(''); fkind.push(K_ROOT);
	/* sibling order: by name (flamegraph.pl's), then DSO and kind */
	const frank = new Uint32Array(fname.length);
	{
		const order = Array.from(fname.keys());
		const cmp = (a, b) => a < b ? -1 : a > b ? 1 : 0;
		order.sort((a, b) => cmp(fname[a], fname[b]) || cmp(fdso[a], fdso[b]) || fkind[a] - fkind[b]);
		order.forEach((f, r) => { frank[f] = r; });
	}

	/* the file's tree: node 0 is the root, then preorder */
	const NB = data.nnodes + 1;
	const bfunc = new Uint32Array(NB), bfirst = new Uint32Array(NB), bnext = new Uint32Array(NB);
	const bself = new Float64Array(NB * S);
	{
		const next = decoder(data.nodes), stack = [0], last = new Uint32Array(NB);
		let prev = 0;
		bfunc[0] = ROOT_FUNC;
		for (let i = 1; i < NB; i++) {
			bfunc[i] = next();
			const depth = prev + 1 - next();
			for (let s = 0; s < S; s++)
				bself[i * S + s] = next();
			const p = stack[depth - 1];
			if (last[p])
				bnext[last[p]] = i;
			else
				bfirst[p] = i;
			last[p] = i;
			stack[depth] = i;
			prev = depth;
		}
	}
	const threads = [];	/* level 1: one node per thread */
	for (let k = bfirst[0]; k; k = bnext[k])
		threads.push(k);

	/* ---- the view: a tree in preorder built from groups of file nodes ---- */
	const ui = { threads: 'merged', time: 'both', widths: 'new', icicle: false, search: '', regex: false };
	let V = null;		/* the view */
	let zoomNode = 0, hover = -1;

	function buildView() {
		const func = [], depth = [], parent = [], end = [], self = [];
		function emit(f, group, d, par) {
			const id = func.length;
			func.push(f); depth.push(d); parent.push(par); end.push(0);
			for (let s = 0; s < S; s++) {
				let v = 0;
				for (const b of group)
					v += bself[b * S + s];
				self.push(v);
			}
			let kids;
			if (d === 0 && ui.threads === 'merged') {
				const byComm = new Map();
				for (const t of threads) {
					const c = commFunc.get(fname[bfunc[t]]);
					if (!byComm.has(c))
						byComm.set(c, []);
					byComm.get(c).push(t);
				}
				kids = Array.from(byComm);
			} else if (d === 0 && ui.threads !== 'threads') {
				kids = [[bfunc[+ui.threads], [+ui.threads]]];
			} else if (group.length === 1) {
				kids = [];
				for (let k = bfirst[group[0]]; k; k = bnext[k])
					kids.push([bfunc[k], [k]]);
			} else {
				const byFunc = new Map();
				for (const b of group)
					for (let k = bfirst[b]; k; k = bnext[k]) {
						if (!byFunc.has(bfunc[k]))
							byFunc.set(bfunc[k], []);
						byFunc.get(bfunc[k]).push(k);
					}
				kids = Array.from(byFunc);
			}
			if (kids.length > 1)
				kids.sort((a, b) => frank[a[0]] - frank[b[0]]);
			for (const [kf, kg] of kids)
				emit(kf, kg, d + 1, id);
			end[id] = func.length;
		}
		emit(ROOT_FUNC, [0], 0, -1);
		const n = func.length;
		const tot = new Float64Array(n * S);
		for (let i = 0; i < n * S; i++)
			tot[i] = self[i];
		for (let i = n - 1; i > 0; i--)
			for (let s = 0; s < S; s++)
				tot[parent[i] * S + s] += tot[i * S + s];
		let maxDepth = 0;
		for (const d of depth)
			maxDepth = Math.max(maxDepth, d);
		V = { n, func: Uint32Array.from(func), depth: Uint16Array.from(depth),
		      parent: Int32Array.from(parent), end: Uint32Array.from(end), tot, maxDepth,
		      val: new Float64Array(n), oth: new Float64Array(n), x: new Float64Array(n) };
		zoomNode = 0;
		values();
	}

	/* the series a width adds: [file][on, off] (convert_html.h) */
	function seriesOf(file) {
		const per = data.offcpu ? 2 : 1, base = data.diff ? file * per : 0, out = [];
		if (!data.offcpu || ui.time !== 'off')
			out.push(base);
		if (data.offcpu && ui.time !== 'on')
			out.push(base + 1);
		return out;
	}

	function values() {
		const wfile = data.diff && ui.widths === 'old' ? 0 : 1;
		const ws = seriesOf(wfile), os = data.diff ? seriesOf(1 - wfile) : [];
		const { n, tot, val, oth, x, parent } = V;
		for (let i = 0; i < n; i++) {
			let v = 0, o = 0;
			for (const s of ws)
				v += tot[i * S + s];
			for (const s of os)
				o += tot[i * S + s];
			val[i] = v;
			oth[i] = o;
		}
		/* x: the sum of the values of the siblings before, from the parent's x */
		const cursor = new Float64Array(n);
		x[0] = 0;
		for (let i = 1; i < n; i++) {
			const p = parent[i];
			x[i] = x[p] + cursor[p];
			cursor[p] += val[i];
		}
		if (!val[zoomNode])	/* the zoomed frame has nothing in this view */
			zoomNode = 0;
		matchAll();
	}

	/* ---- colors: flamegraph.pl's palettes, picked by a hash of the name ---- */
	const colorCache = new Map();
	function hashName(s) {
		let h = 2166136261;
		for (let i = 0; i < s.length; i++)
			h = Math.imul(h ^ s.charCodeAt(i), 16777619);
		h >>>= 0;
		return [(h & 1023) / 1023, ((h >>> 10) & 1023) / 1023, ((h >>> 20) & 1023) / 1023];
	}
	function rgb(r, g, b) {
		return 'rgb(' + Math.round(r) + ',' + Math.round(g) + ',' + Math.round(b) + ')';
	}
	function funcColor(f) {
		let c = colorCache.get(f);
		if (c)
			return c;
		const [v1, v2, v3] = hashName(fname[f]);
		switch (fkind[f]) {
		case 1: c = rgb(190 + 65 * v1, 90 + 65 * v1, 0); break;			/* kernel: orange */
		case 2: c = rgb(50 + 60 * v1, 200 + 55 * v1, 50 + 60 * v1); break;	/* JIT: green */
		case 3: c = rgb(50 + 60 * v1, 165 + 55 * v1, 165 + 55 * v1); break;	/* inline: aqua */
		case K_THREAD: case K_COMM: case K_ROOT:
			c = rgb(200 + 40 * v1, 200 + 40 * v1, 200 + 40 * v1); break;	/* grey */
		default: c = rgb(205 + 50 * v3, 230 * v1, 55 * v2);			/* hot */
		}
		colorCache.set(f, c);
		return c;
	}
	/* off-CPU time: flamegraph.pl's blue palette (--colors=io), on the
	 * frames with more time off the CPU than on it */
	function offcpuMostly(i) {
		if (!data.offcpu || fkind[V.func[i]] >= K_THREAD)
			return false;
		const base = data.diff && ui.widths !== 'old' ? 2 : 0;
		const on = ui.time === 'off' ? 0 : V.tot[i * S + base], off = ui.time === 'on' ? 0 : V.tot[i * S + base + 1];
		return off > on;
	}
	function offColor(f) {
		const v1 = hashName(fname[f])[0];
		return rgb(80 + 60 * v1, 80 + 60 * v1, 190 + 55 * v1);
	}
	/* differential: red grew, blue shrank, by the change of share */
	let maxDelta = 0;
	function delta(i) {
		const nw = ui.widths === 'old' ? V.oth : V.val, od = ui.widths === 'old' ? V.val : V.oth;
		return (nw[0] ? nw[i] / nw[0] : 0) - (od[0] ? od[i] / od[0] : 0);
	}
	function diffColor(i) {
		const d = delta(i);
		if (!maxDelta || Math.abs(d) < 1e-12)
			return 'rgb(245,245,245)';
		const t = Math.min(1, Math.abs(d) / maxDelta), c = 220 * (1 - t);
		return d > 0 ? rgb(255, c, c) : rgb(c, c, 255);
	}

	/* ---- search ---- */
	let funcMatch = null, matchedPct = null, matchedFrames = 0, searchError = '';
	function setSearch(term, regex) {
		ui.search = term;
		ui.regex = !!regex;
		matchAll();
		draw();
		return matchedPct;
	}
	function matchAll() {
		funcMatch = null;
		matchedPct = null;
		matchedFrames = 0;
		searchError = '';
		if (ui.search) {
			let test;
			if (ui.regex) {
				try {
					const re = new RegExp(ui.search);
					test = (s) => re.test(s);
				} catch (e) {
					searchError = 'invalid regex: ' + e.message;
				}
			} else {
				test = (s) => s.includes(ui.search);
			}
			if (test) {
				funcMatch = new Uint8Array(fname.length);
				for (let f = 0; f < fname.length; f++)
					funcMatch[f] = fkind[f] !== K_ROOT && test(fname[f]) ? 1 : 0;
				/* each sample once: the outermost matched frames */
				let sum = 0, covered = 0;
				for (let i = 1; i < V.n; i++) {
					if (!funcMatch[V.func[i]])
						continue;
					matchedFrames++;
					if (i >= covered) {
						sum += V.val[i];
						covered = V.end[i];
					}
				}
				matchedPct = V.val[0] ? 100 * sum / V.val[0] : 0;
			}
		}
		const m = $('matched');
		m.textContent = searchError || (matchedPct === null ? '' :
			'Matched: ' + matchedPct.toFixed(2) + '% (' + matchedFrames + ' frames)');
		m.className = searchError ? 'error' : '';
	}

	/* ---- drawing ---- */
	const canvas = $('canvas'), ctx = canvas.getContext('2d');
	let drawn = null, charW = 7, cssW = 0, cssH = 0;

	function fmtValue(v) {
		if (data.unit === 'ns') {
			if (v >= 1e9)
				return (v / 1e9).toFixed(3) + ' s';
			return (v / 1e6).toFixed(3) + ' ms';
		}
		return Math.round(v) + (data.unit === 'samples' ? (v === 1 ? ' sample' : ' samples') : ' ' + data.unit);
	}

	/* the boxes to draw: the zoomed node's ancestors across the width, its
	 * subtree to scale, subtrees narrower than MIN_W left out */
	function layout() {
		const z = zoomNode, scale = V.val[z] ? cssW / V.val[z] : 0, out = [];
		let rows = 1;
		if (!scale)	/* nothing to show: the root alone */
			return { out: [[0, 0, cssW]], rows };
		for (let a = V.parent[z]; a >= 0; a = V.parent[a])
			out.push([a, 0, cssW]);
		for (let i = z; i < V.end[z];) {
			const w = V.val[i] * scale;
			if (w < MIN_W) {
				i = V.end[i];
				continue;
			}
			out.push([i, (V.x[i] - V.x[z]) * scale, w]);
			rows = Math.max(rows, V.depth[i] + 1);
			i++;
		}
		return { out, rows };
	}

	function draw() {
		cssW = Math.max(100, $('chart').clientWidth - 20);
		const { out, rows } = layout(), dpr = window.devicePixelRatio || 1;
		cssH = rows * ROW + 2;
		canvas.style.height = cssH + 'px';
		canvas.width = Math.round(cssW * dpr);
		canvas.height = Math.round(cssH * dpr);
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, cssW, cssH);
		ctx.font = FONT;
		ctx.textBaseline = 'middle';
		charW = ctx.measureText('M').width || 7;
		if (data.diff) {
			maxDelta = 0;
			for (let i = 0; i < V.n; i++)
				maxDelta = Math.max(maxDelta, Math.abs(delta(i)));
		}
		drawn = { node: [], x: [], w: [], rows: Array.from({ length: rows }, () => []) };
		for (const [i, x, w] of out)
			box(i, x, w);
		$('reset').disabled = zoomNode === 0;
		info();
	}

	function rowY(depth) {
		return ui.icicle ? depth * ROW : cssH - (depth + 1) * ROW;
	}

	function box(i, x, w) {
		const f = V.func[i], y = rowY(V.depth[i]);
		ctx.fillStyle = funcMatch && funcMatch[f] ? 'rgb(230,0,230)' :
			data.diff ? diffColor(i) : offcpuMostly(i) ? offColor(f) : funcColor(f);
		ctx.fillRect(x, y, Math.max(w - (w > 3 ? 1 : 0), 0.5), ROW - 1);
		const chars = Math.floor((w - 6) / charW);
		if (chars >= 3) {
			let label = label_of(i);
			if (label.length > chars)
				label = label.slice(0, chars - 2) + '..';
			ctx.fillStyle = '#000';
			ctx.fillText(label, x + 3, y + ROW / 2);
		}
		drawn.rows[V.depth[i]].push(drawn.node.length);
		drawn.node.push(i);
		drawn.x.push(x);
		drawn.w.push(w);
	}

	function label_of(i) {
		const f = V.func[i];
		if (fkind[f] === K_THREAD)
			return fname[f] + ' ' + fdso[f];
		return fname[f];
	}

	function pct(v, of) {
		return of ? (100 * v / of).toFixed(2) + '%' : '0%';
	}

	function describe(i) {
		const f = V.func[i], lines = [label_of(i)];
		if (fkind[f] < K_THREAD)
			lines.push((fdso[f] || '[unknown]') + (fkind[f] ? ' (' + KINDS[fkind[f]] + ')' : ''));
		lines.push(fmtValue(V.val[i]) + ' (' + pct(V.val[i], V.val[0]) + ')');
		if (data.offcpu) {
			const base = data.diff && ui.widths !== 'old' ? 2 : 0;
			lines.push('on-CPU ' + fmtValue(V.tot[i * S + base]) + ', off-CPU ' + fmtValue(V.tot[i * S + base + 1]));
		}
		if (data.diff) {
			const nw = ui.widths === 'old' ? V.oth : V.val, od = ui.widths === 'old' ? V.val : V.oth;
			const d = 100 * delta(i);
			lines.push('old ' + pct(od[i], od[0]) + ' -> new ' + pct(nw[i], nw[0]) + ' (' +
				   (d >= 0 ? '+' : '') + d.toFixed(2) + ' points)');
		}
		return lines.join('\n');
	}

	function info() {
		const files = data.files.join(' -> ');
		let t = files + ': ' + data.events.join(', ') + ', ' + fmtValue(V.val[0]);
		if (!V.val[0])
			t += ' (nothing to show: no sample passed the filters, or the file has none)';
		if (zoomNode)
			t += '; zoomed on ' + label_of(zoomNode) + ' (' + pct(V.val[zoomNode], V.val[0]) + ')';
		$('info').textContent = t;
	}

	/* the drawn node under a point of the canvas (CSS pixels), or -1 */
	function hit(px, py) {
		if (!drawn)
			return -1;
		const d = ui.icicle ? Math.floor(py / ROW) : Math.floor((cssH - py) / ROW);
		const row = drawn.rows[d];
		if (!row)
			return -1;
		let lo = 0, hi = row.length - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1, k = row[mid];
			if (px < drawn.x[k])
				hi = mid - 1;
			else if (px >= drawn.x[k] + drawn.w[k])
				lo = mid + 1;
			else
				return drawn.node[k];
		}
		return -1;
	}

	function zoom(i) {
		zoomNode = i > 0 && i < V.n ? i : 0;
		draw();
	}

	/* ---- controls ---- */
	/* the thread selector, the busiest first (threads are contiguous in preorder) */
	function fillThreads() {
		const sel = $('threads'), ws = seriesOf(data.diff ? 1 : 0), tv = new Map();
		threads.forEach((t, j) => {
			let v = 0;
			for (let k = t; k < (j + 1 < threads.length ? threads[j + 1] : NB); k++)
				for (const s of ws)
					v += bself[k * S + s];
			tv.set(t, v);
		});
		const all = Array.from(tv.values()).reduce((a, v) => a + v, 0);
		sel.textContent = '';
		const add = (value, text) => {
			const o = document.createElement('option');
			o.value = value;
			o.textContent = text;
			sel.appendChild(o);
		};
		add('merged', 'all, merged by command');
		add('threads', 'all, one tower per thread');
		for (const t of threads.slice().sort((a, b) => tv.get(b) - tv.get(a)))
			add(String(t), fname[bfunc[t]] + ' ' + fdso[bfunc[t]] + ' (' + pct(tv.get(t), all) + ')');
		sel.value = ui.threads;
	}

	function set(opts) {
		let rebuild = false;
		const valid = (v) => v === 'merged' || v === 'threads' || threads.includes(+v);
		if (opts.threads !== undefined && valid(String(opts.threads)) && String(opts.threads) !== ui.threads) {
			ui.threads = String(opts.threads);
			rebuild = true;
		}
		for (const k of ['time', 'widths'])
			if (opts[k] !== undefined)
				ui[k] = opts[k];
		if (opts.icicle !== undefined)
			ui.icicle = !!opts.icicle;
		$('threads').value = ui.threads;
		$('time').value = ui.time;
		$('widths').value = ui.widths;
		$('direction').textContent = ui.icicle ? 'Flame' : 'Icicle';
		if (rebuild)
			buildView();
		else
			values();
		draw();
	}

	$('time-l').hidden = !data.offcpu;
	$('widths-l').hidden = !data.diff;
	$('title').textContent = data.diff ? 'Differential flame graph' : 'Flame graph';
	$('threads').addEventListener('change', (e) => set({ threads: e.target.value }));
	$('time').addEventListener('change', (e) => set({ time: e.target.value }));
	$('widths').addEventListener('change', (e) => set({ widths: e.target.value }));
	$('direction').addEventListener('click', () => set({ icicle: !ui.icicle }));
	$('reset').addEventListener('click', () => zoom(0));
	$('search').addEventListener('input', () => setSearch($('search').value, $('regex').checked));
	$('regex').addEventListener('change', () => setSearch($('search').value, $('regex').checked));
	canvas.addEventListener('click', (e) => {
		const r = canvas.getBoundingClientRect(), i = hit(e.clientX - r.left, e.clientY - r.top);
		if (i >= 0)
			zoom(i);
	});
	const tip = $('tip');
	canvas.addEventListener('mousemove', (e) => {
		const r = canvas.getBoundingClientRect(), i = hit(e.clientX - r.left, e.clientY - r.top);
		if (i < 0) {
			tip.hidden = true;
			hover = -1;
			return;
		}
		if (i !== hover)
			tip.textContent = describe(i);
		hover = i;
		tip.hidden = false;
		const x = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 4);
		const y = e.clientY + 16 + tip.offsetHeight > window.innerHeight ? e.clientY - tip.offsetHeight - 8 : e.clientY + 16;
		tip.style.left = Math.max(0, x) + 'px';
		tip.style.top = Math.max(0, y) + 'px';
	});
	canvas.addEventListener('mouseleave', () => { tip.hidden = true; hover = -1; });
	document.addEventListener('keydown', (e) => {
		if ((e.ctrlKey || e.metaKey) && e.key === 'f') {
			e.preventDefault();
			$('search').focus();
		} else if (e.key === 'Escape') {
			zoom(0);
		}
	});
	let resizeTimer = 0;
	window.addEventListener('resize', () => {
		clearTimeout(resizeTimer);
		resizeTimer = setTimeout(draw, 50);
	});

	fillThreads();
	buildView();
	draw();

	/* The documented hook (perfev-flamegraph(1), SCRIPTING): the drawn boxes in
	 * CSS pixels of the canvas, and the controls as functions. */
	window.__flamegraph = {
		rects() {
			const out = [];
			for (let k = 0; k < drawn.node.length; k++) {
				const i = drawn.node[k], f = V.func[i];
				out.push({ node: i, parent: V.parent[i], name: label_of(i), dso: fdso[f],
					   kind: KINDS[fkind[f]], depth: V.depth[i], x: drawn.x[k],
					   y: rowY(V.depth[i]), w: drawn.w[k], h: ROW - 1, value: V.val[i],
					   matched: !!(funcMatch && funcMatch[f]),
					   delta: data.diff ? delta(i) : null });
			}
			return out;
		},
		width: () => cssW,
		total: () => V.val[0],
		search: (term, regex) => setSearch(term || '', regex),
		matched: () => ({ percent: matchedPct, frames: matchedFrames, error: searchError }),
		zoom: (node) => zoom(node),
		reset: () => zoom(0),
		set: (opts) => set(opts || {}),
		state: () => ({ zoom: zoomNode, threads: ui.threads, time: ui.time, widths: ui.widths,
				icicle: ui.icicle, search: ui.search, regex: ui.regex, diff: data.diff,
				offcpu: data.offcpu, unit: data.unit, nodes: V.n }),
	};
}());
