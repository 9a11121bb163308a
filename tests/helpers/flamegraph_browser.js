#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
/* Opens a perfev flame graph (--to html) in headless Chromium, driven over
 * the DevTools protocol on a pipe (--remote-debugging-pipe: no npm package,
 * no port), and checks it as a user sees it.  Run by
 * tests/compat/convert_html_browser.c, which computes the expected numbers
 * from perf report; this script only measures and compares.
 *
 *   node flamegraph_browser.js --chromium PATH --html FILE --profile DIR
 *        [--shot PNG] [--tol PCT]
 *        [--width NAME=PCT]...   the frames named NAME (outermost of each
 *                                stack) drawn PCT% of the width
 *        [--search TERM=PCT]     typing TERM gives "Matched: PCT%" and
 *                                paints its frames magenta
 *        [--zoom NAME] [--zoom-hides NAME]  clicking NAME's widest frame
 *                                zooms on it (full width), NAME2 vanishes
 *        [--grew NAME] [--shrank NAME]  differential: red / blue
 *        [--time MODE:NAME=PCT]  with the Time selector on MODE (on, off,
 *                                both), NAME is drawn PCT% of the width
 *        [--max-ms MS]           load and each interaction within MS
 *        [--unit UNIT]           the page counts in UNIT (samples, ns, period)
 *        [--kind KIND]...        frames of this kind (kernel, jit, inline)
 *                                are drawn, in their palette
 *
 * Always: no console error, no exception, no request but the page itself
 * (every other is failed and reported), and a CSP violation when the page
 * is made to try one (the detector and the page's policy work).  Prints
 * "ok ..." / "FAIL ..." lines; exit 0 when all passed, 1 otherwise. */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const args = { kinds: [], maxMs: 0, time: [], width: [], search: null, zoom: null, zoomHides: null, grew: [], shrank: [], tol: 1 };
for (let i = 2; i < process.argv.length; i += 2) {
	const k = process.argv[i], v = process.argv[i + 1];
	switch (k) {
	case '--chromium': args.chromium = v; break;
	case '--html': args.html = path.resolve(v); break;
	case '--profile': args.profile = v; break;
	case '--shot': args.shot = v; break;
	case '--tol': args.tol = +v; break;
	case '--max-ms': args.maxMs = +v; break;
	case '--width': args.width.push(v); break;
	case '--time': args.time.push(v); break;
	case '--kind': args.kinds.push(v); break;
	case '--unit': args.unit = v; break;
	case '--search': args.search = v; break;
	case '--zoom': args.zoom = v; break;
	case '--zoom-hides': args.zoomHides = v; break;
	case '--grew': args.grew.push(v); break;
	case '--shrank': args.shrank.push(v); break;
	default: console.log('FAIL unknown argument ' + k); process.exit(2);
	}
}

let failed = 0;
function check(ok, what) {
	console.log((ok ? 'ok ' : 'FAIL ') + what);
	if (!ok)
		failed++;
}

const chrome = spawn(args.chromium, [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
	'--disable-component-update', '--no-first-run', '--disable-sync', '--disable-extensions',
	'--disable-default-apps', '--mute-audio', '--hide-scrollbars',
	'--user-data-dir=' + args.profile, '--remote-debugging-pipe', 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let chromeErr = '';
chrome.stderr.on('data', (d) => { chromeErr += d; });
chrome.on('exit', (code) => {
	if (!done) {
		console.log('FAIL chromium exited (' + code + ') early: ' + chromeErr.slice(-2000));
		process.exit(1);
	}
});
let done = false;

/* the protocol: JSON messages ended by NUL, commands on fd 3, replies on fd 4 */
const toChrome = chrome.stdio[3], fromChrome = chrome.stdio[4];
let nextId = 1, buf = '';
const pending = new Map(), listeners = [];
fromChrome.on('data', (d) => {
	buf += d.toString('utf8');
	let z;
	while ((z = buf.indexOf('\0')) >= 0) {
		const msg = JSON.parse(buf.slice(0, z));
		buf = buf.slice(z + 1);
		if (msg.id && pending.has(msg.id)) {
			const { resolve, reject, method } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error)
				reject(new Error(method + ': ' + msg.error.message));
			else
				resolve(msg.result);
		} else if (msg.method) {
			for (const l of listeners)
				l(msg);
		}
	}
});
function send(method, params, sessionId) {
	const id = nextId++;
	toChrome.write(JSON.stringify({ id, method, params: params || {}, sessionId }) + '\0');
	return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	const page = (m, p) => send(m, p, sessionId);
	const pageUrl = 'file://' + args.html;
	const errors = [], requests = [], security = [];
	let loaded = false;
	listeners.push((msg) => {
		if (msg.sessionId !== sessionId)
			return;
		const p = msg.params;
		switch (msg.method) {
		case 'Runtime.exceptionThrown':
			errors.push('exception: ' + JSON.stringify(p.exceptionDetails).slice(0, 500));
			break;
		case 'Runtime.consoleAPICalled':
			if (p.type === 'error' || p.type === 'assert' || p.type === 'warning')
				errors.push('console.' + p.type + ': ' + JSON.stringify(p.args).slice(0, 500));
			break;
		case 'Log.entryAdded':
			if (p.entry.source === 'security' || /Content Security Policy/.test(p.entry.text))
				security.push(p.entry.text);
			/* the test's own readback of pixels (getImageData), not the page */
			else if (/willReadFrequently/.test(p.entry.text))
				break;
			else if (p.entry.level === 'error' || p.entry.level === 'warning')
				errors.push('log ' + p.entry.level + ': ' + p.entry.text);
			break;
		case 'Network.requestWillBeSent':
			if (p.request.url !== pageUrl)
				requests.push(p.request.url);
			break;
		case 'Fetch.requestPaused':
			if (p.request.url === pageUrl) {
				page('Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
			} else {
				requests.push(p.request.url);
				page('Fetch.failRequest', { requestId: p.requestId, errorReason: 'BlockedByClient' }).catch(() => {});
			}
			break;
		case 'Page.loadEventFired':
			loaded = true;
			break;
		}
	});
	await page('Runtime.enable');
	await page('Log.enable');
	await page('Network.enable');
	await page('Page.enable');
	await page('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
	await page('Emulation.setDeviceMetricsOverride', { width: 1920, height: 1000, deviceScaleFactor: 1, mobile: false });
	await page('Page.navigate', { url: pageUrl });
	for (let i = 0; i < 300 && !loaded; i++)
		await sleep(50);
	check(loaded, 'the page loaded');

	const ev = async (expr) => {
		const r = await page('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
		if (r.exceptionDetails)
			throw new Error(expr + ': ' + JSON.stringify(r.exceptionDetails).slice(0, 500));
		return r.result.value;
	};
	const hook = await ev('typeof window.__flamegraph === "object" && window.__flamegraph.state()');
	check(!!hook, 'window.__flamegraph is there: ' + JSON.stringify(hook));
	if (!hook)
		return;
	const W = await ev('window.__flamegraph.width()');
	if (args.unit)
		check(hook.unit === args.unit, `the page counts in ${hook.unit}, expected ${args.unit}`);
	const rects = () => ev('window.__flamegraph.rects()');
	/* the canvas's own pixel at (x, y) in its CSS pixels: what was drawn */
	const pixel = (x, y) => ev(`(() => { const c = document.getElementById('canvas'), d = window.devicePixelRatio || 1;
		return Array.from(c.getContext('2d').getImageData(Math.floor(${x} * d), Math.floor(${y} * d), 1, 1).data); })()`);
	/* scrolls the canvas's row y (CSS pixels) into the middle of the window */
	const reveal = (y) => ev(`(() => { const r = document.getElementById('canvas').getBoundingClientRect();
		window.scrollBy(0, r.top + ${y} - window.innerHeight / 2); })()`);
	/* a real click, where a user would click: page coordinates */
	const click = async (x, y) => {
		await reveal(y);
		const off = await ev('(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top]; })()');
		for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
			await page('Input.dispatchMouseEvent', { type, x: off[0] + x, y: off[1] + y, button: 'left', clickCount: 1 });
		await sleep(100);
	};
	const clickId = async (id) => {
		const c = await ev(`(() => { const r = document.getElementById('${id}').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`);
		for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased'])
			await page('Input.dispatchMouseEvent', { type, x: c[0], y: c[1], button: 'left', clickCount: 1 });
		await sleep(100);
	};
	/* the share of the width drawn for NAME: its outermost frames in each stack */
	const share = (rs, name) => {
		const byNode = new Map(rs.map((r) => [r.node, r]));
		let w = 0;
		for (const r of rs) {
			if (r.name !== name)
				continue;
			let a = byNode.get(r.parent), nested = false;
			for (; a; a = byNode.get(a.parent))
				nested = nested || a.name === name;
			if (!nested)
				w += r.w;
		}
		return 100 * w / W;
	};
	const widest = (rs, name) => rs.filter((r) => r.name === name).sort((a, b) => b.w - a.w)[0];

	/* responsiveness: the page's load (decode, view, first drawing), then
	 * each interaction, within maxMs */
	if (args.maxMs) {
		const t = await ev(`(() => {
			const fg = window.__flamegraph, nav = performance.getEntriesByType('navigation')[0];
			const time = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
			const big = fg.rects().filter((r) => r.depth >= 2).sort((a, b) => b.w - a.w)[0];
			return { load: nav.loadEventEnd - nav.startTime, nodes: fg.state().nodes,
				 search: time(() => fg.search('func_1', true)),
				 zoom: time(() => fg.zoom(big.node)), reset: time(() => fg.reset()),
				 clear: time(() => fg.search('')),
				 threads: time(() => fg.set({ threads: 'threads' })),
				 icicle: time(() => fg.set({ icicle: true })) };
		})()`);
		console.log('timings (ms): ' + JSON.stringify(t));
		for (const k of ['load', 'search', 'zoom', 'reset', 'clear', 'threads', 'icicle'])
			check(t[k] <= args.maxMs, `${k} took ${t[k].toFixed(0)} ms on ${t.nodes} nodes (limit ${args.maxMs} ms)`);
		await ev('window.__flamegraph.set({ icicle: false, threads: "merged" })');
	}

	let rs = await rects();
	check(rs.length > 1 && rs.some((r) => r.depth === 0 && Math.abs(r.w - W) < 0.5),
	      rs.length + ' boxes drawn, the root across the whole width ' + W);
	/* flamegraph.pl's palettes on the canvas: hot (red-yellow) user code,
	 * orange kernel, green JIT, aqua inlined */
	if (!hook.diff && !hook.offcpu) {
		const family = {
			user: (p) => p[0] >= 205 && p[2] <= 55,
			kernel: (p) => p[0] >= 190 && p[1] >= 90 && p[1] <= 155 && p[2] === 0,
			jit: (p) => p[0] <= 110 && p[1] >= 200 && p[2] <= 110,
			inline: (p) => p[0] <= 110 && p[1] >= 165 && p[2] >= 165,
		};
		const seen = {};
		for (const r of rs) {
			if (!family[r.kind] || r.w < 3 || seen[r.kind] >= 5)
				continue;
			seen[r.kind] = (seen[r.kind] || 0) + 1;
			const px = await pixel(r.x + 1, r.y + 1);
			check(family[r.kind](px), `'${r.name}' (${r.kind}) painted in its palette: ${px}`);
		}
		console.log('palettes checked: ' + JSON.stringify(seen));
		for (const k of args.kinds)
			check(seen[k] > 0, `${k} frames are drawn`);
	}
	for (const spec of args.width) {
		const [name, want] = spec.split('=');
		const got = share(rs, name);
		check(+want >= 0 && Math.abs(got - +want) <= args.tol && (got > 0 || +want < args.tol),
		      `'${name}' drawn ${got.toFixed(2)}% of the width, perf report: ${want}%`);
	}

	if (args.search) {
		const [term, want] = args.search.split('=');
		const r = widest(rs, term);
		const before = r ? await pixel(r.x + r.w / 2, r.y + 1) : null;
		await ev('document.getElementById("search").focus()');
		await page('Input.insertText', { text: term });
		await sleep(200);
		const text = await ev('document.getElementById("matched").textContent');
		const m = /Matched: ([0-9.]+)%/.exec(text);
		check(m && Math.abs(+m[1] - +want) <= args.tol, `search '${term}' shows '${text}', perf report: ${want}%`);
		rs = await rects();
		const hl = rs.filter((x) => x.matched);
		check(hl.length > 0 && hl.every((x) => x.name.includes(term)) &&
		      rs.filter((x) => x.name.includes(term)).every((x) => x.matched),
		      `search '${term}' highlights exactly the ${hl.length} boxes whose names hold it`);
		const after = r ? await pixel(r.x + r.w / 2, r.y + 1) : null;
		check(before && after && String(after.slice(0, 3)) === '230,0,230' && String(before.slice(0, 3)) !== '230,0,230',
		      `the canvas pixel of '${term}' went from ${before} to magenta ${after}`);
		/* the same as a regex (the checkbox), then a bad regex: said, not thrown.
		   Unanchored, as the plain search matches every name that holds the
		   term (python3 has _PyUnicode_New... beside PyUnicode_New) */
		await clickId('regex');
		const esc = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
		await ev(`(() => { const s = document.getElementById("search"); s.value = ${JSON.stringify('(' + esc + '|no such frame)')};
			s.dispatchEvent(new Event("input")); })()`);
		const rtext = await ev('document.getElementById("matched").textContent');
		const rm = /Matched: ([0-9.]+)%/.exec(rtext);
		check(rm && m && rm[1] === m[1], `regex search '(${esc}|no such frame)' (what the plain search matched: the names holding it) shows '${rtext}'`);
		await ev('(() => { const s = document.getElementById("search"); s.value = "(("; s.dispatchEvent(new Event("input")); })()');
		const bad = await ev('document.getElementById("matched").textContent');
		check(/^invalid regex/.test(bad), `a bad regex is said on the page: '${bad}'`);
		await clickId('regex');
		await ev('(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()');
		rs = await rects();
		check(!rs.some((x) => x.matched) && (await ev('document.getElementById("matched").textContent')) === '',
		      'clearing the search clears the highlight');
	}

	if (args.zoom) {
		const r = widest(rs, args.zoom);
		check(!!r, `'${args.zoom}' is drawn`);
		if (r) {
			const hides = args.zoomHides;
			check(!hides || rs.some((x) => x.name === hides), `'${hides}' is drawn before the zoom`);
			await click(r.x + r.w / 2, r.y + r.h / 2);
			const z = await rects(), st = await ev('window.__flamegraph.state()');
			const zr = z.find((x) => x.node === r.node);
			check(st.zoom === r.node && zr && Math.abs(zr.w - W) < 0.5,
			      `clicking '${args.zoom}' (${r.w.toFixed(1)} px) zooms on it: now ${zr ? zr.w.toFixed(1) : 'not drawn'} of ${W} px`);
			check(!hides || !z.some((x) => x.name === hides), `'${hides}' is no longer drawn once zoomed`);
			const px = await pixel(W / 2, zr.y + 1);
			check(px[3] === 255, 'the zoomed frame is painted across the canvas: ' + px);
			await clickId('reset');
			const back = await rects();
			check((await ev('window.__flamegraph.state().zoom')) === 0 && back.length === rs.length,
			      'Reset zoom draws the whole graph again (' + back.length + ' boxes)');
		}
	}

	for (const spec of args.time) {
		const [mode, rest] = spec.split(':'), [name, want] = rest.split('=');
		const shown = await ev('!document.getElementById("time-l").hidden');
		await ev(`(() => { const s = document.getElementById('time'); s.value = '${mode}'; s.dispatchEvent(new Event('change')); })()`);
		const got = share(await rects(), name);
		const r = widest(await rects(), name), px = r ? await pixel(r.x + 1, r.y + 1) : [0, 0, 0];
		const blue = px[2] >= 190 && px[0] <= 140 && px[1] <= 140;
		check(shown && +want >= 0 && got > 0 && Math.abs(got - +want) <= args.tol,
		      `Time '${mode}': '${name}' drawn ${got.toFixed(2)}% of the width, expected ${want}%`);
		/* frames mostly off the CPU in flamegraph.pl's blue (io) palette */
		check(mode !== 'off' || blue, `Time '${mode}': '${name}' is painted blue (${px})`);
	}
	if (args.time.length)
		await ev(`(() => { const s = document.getElementById('time'); s.value = 'both'; s.dispatchEvent(new Event('change')); })()`);

	for (const [list, sign, what] of [[args.grew, 1, 'grew: red'], [args.shrank, -1, 'shrank: blue']])
		for (const name of list) {
			const r = widest(rs, name);
			const px = r ? await pixel(r.x + r.w / 2, r.y + 1) : [0, 0, 0];
			const ok = r && Math.sign(r.delta) === sign &&
				(sign > 0 ? px[0] === 255 && px[2] < 255 : px[2] === 255 && px[0] < 255);
			check(ok, `'${name}' ${what} (delta ${r ? (100 * r.delta).toFixed(2) : '?'} points, pixel ${px})`);
		}

	/* Threads: merged by command (the default), one tower per thread, one thread */
	{
		const pick = (v) => ev(`(() => { const s = document.getElementById('threads'); s.value = ${JSON.stringify(v)};
			s.dispatchEvent(new Event('change')); return s.value; })()`);
		const opts = await ev('Array.from(document.getElementById("threads").options).map((o) => o.value)');
		const merged = (await rects()).filter((x) => x.depth === 1);
		await pick('threads');
		const per = (await rects()).filter((x) => x.depth === 1);
		const perW = per.reduce((a, x) => a + x.w, 0);
		check(merged.every((x) => x.kind === 'comm') && per.length >= merged.length &&
		      per.every((x) => x.kind === 'thread' && / \d+\/\d+$/.test(x.name)) && Math.abs(perW - W) <= W * args.tol / 100,
		      `Threads: ${merged.length} commands merged, ${per.length} threads side by side (${perW.toFixed(1)} of ${W} px)`);
		const one = opts[2];
		await pick(one);
		const solo = (await rects()).filter((x) => x.depth === 1);
		check(solo.length === 1 && Math.abs(solo[0].w - W) < 0.5 && String(solo[0].node) !== '' &&
		      (await ev('window.__flamegraph.state().threads')) === one,
		      `Threads: one thread alone across the width (${solo.length ? solo[0].name : 'none'})`);
		await pick('merged');
	}

	/* flame and icicle: the root at the bottom, then at the top */
	const rootY = async () => (await rects()).find((x) => x.depth === 0).y;
	const y0 = await rootY();
	await clickId('direction');
	const y1 = await rootY();
	check(y0 > 0 && y1 === 0, `the root moves from y=${y0} (flame) to y=${y1} (icicle)`);
	await clickId('direction');

	/* a tooltip with the samples and percent */
	{
		const r = (await rects()).filter((x) => x.depth === 1).sort((a, b) => b.w - a.w)[0];
		await reveal(r.y);
		const off = await ev('(() => { const r = document.getElementById("canvas").getBoundingClientRect(); return [r.left, r.top]; })()');
		await page('Input.dispatchMouseEvent', { type: 'mouseMoved', x: off[0] + r.x + r.w / 2, y: off[1] + r.y + r.h / 2 });
		await sleep(100);
		const tip = await ev('(() => { const t = document.getElementById("tip"); return t.hidden ? "" : t.textContent; })()');
		const at = await ev(`(() => { const e = document.elementFromPoint(${off[0] + r.x + r.w / 2}, ${off[1] + r.y + r.h / 2}); return e && e.id; })()`);
		check(tip.includes(r.name) && /\(\d+\.\d\d%\)/.test(tip), 'hovering shows a tooltip: ' + JSON.stringify(tip) + ' over #' + at + ' ' + JSON.stringify(r) + ' ' + JSON.stringify(off));
	}

	if (args.shot) {
		const { data } = await page('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
		fs.mkdirSync(path.dirname(args.shot), { recursive: true });
		fs.writeFileSync(args.shot, Buffer.from(data, 'base64'));
		console.log('screenshot: ' + args.shot);
	}

	check(errors.length === 0, 'no console error: ' + JSON.stringify(errors));
	check(requests.length === 0, 'no request left the page: ' + JSON.stringify(requests));
	/* the detectors see a request: the page's CSP refuses it and says so */
	await ev('fetch("http://127.0.0.1:9/probe").catch(() => 0)');
	await sleep(300);
	check(security.length > 0 || requests.length > 0,
	      'a fetch the page is made to try is refused by its CSP: ' + JSON.stringify(security.concat(requests)).slice(0, 300));
}

main().then(() => {}, (e) => { console.log('FAIL ' + (e && e.stack || e)); failed++; }).finally(() => {
	done = true;
	chrome.kill('SIGKILL');
	process.exit(failed ? 1 : 0);
});
