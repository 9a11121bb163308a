#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
/* Writes a flame graph page of a synthetic profile of the given size, for
 * checking that the page stays responsive on large profiles:
 *   node flamegraph_synth.js PAGE.html OUT.html NFUNCS NNODES SAMPLES
 * PAGE.html is any page perfev wrote (its HTML, CSS and script are kept);
 * its data is replaced by a random prefix tree of NNODES nodes over
 * NFUNCS functions holding SAMPLES samples (format: cli/convert/convert_html.c). */
'use strict';
const fs = require('fs');
const [page, out, nfuncs, nnodes, samples] = process.argv.slice(2).map((a, i) => i < 2 ? a : +a);
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const parts = [];
function varint(v) {
	let s = '';
	while (v >= 32) {
		s += DIGITS[32 | (v % 32)];
		v = Math.floor(v / 32);
	}
	parts.push(s + DIGITS[v]);
}
/* strings: one per function, one DSO, a comm and its "pid/tid" */
const strings = [];
for (let i = 0; i < nfuncs; i++)
	strings.push('func_' + i + (i % 7 === 0 ? '_with_a_longer_name<std::pair<int, long>>::operator()' : ''));
strings.push('libsynth.so', 'synth', '1/1');
const funcs = [];
for (let i = 0; i < nfuncs; i++)
	funcs.push(i, nfuncs + 1, i % 11 === 0 ? 1 : i % 13 === 0 ? 3 : 0);
funcs.push(nfuncs + 1, nfuncs + 3, 4);	/* the thread */
/* the tree in preorder: each subtree gets a budget of nodes, split at
 * random (skewed) among 1-8 children, as real profiles have a few hot
 * paths and a long tail; every node 0-2 samples of its own on average
 * SAMPLES/NNODES, leaves at least 1 */
const nodes = [[nfuncs, 0, 0]];	/* the thread, at depth 1 */
const perNode = samples / nnodes;
let prev = 1;
function node(f, depth, budget) {
	const self = Math.round(rnd() * 2 * perNode);
	const at = nodes.length;
	nodes.push([f, prev + 1 - depth, self]);
	prev = depth;
	let rest = budget - 1;
	const kids = depth >= 60 ? 0 : Math.min(rest, 1 + Math.floor(rnd() * 8));
	for (let k = 0; k < kids && rest > 0; k++) {
		const b = k === kids - 1 ? rest : Math.max(1, Math.floor(rest * rnd() * rnd()));
		rest -= b;
		node(Math.floor(rnd() * nfuncs), depth + 1, b);
	}
	if (nodes.length === at + 1 && !self)
		nodes[at][2] = 1;
}
while (nodes.length < nnodes)
	node(Math.floor(rnd() * nfuncs), 2, Math.max(1, Math.floor((nnodes - nodes.length) * rnd())));
for (const [f, up, self] of nodes) {
	varint(f);
	varint(up);
	varint(self);
}
const nodesStr = parts.join('');
parts.length = 0;
for (const v of funcs)
	varint(v);
const funcsStr = parts.join('');
let sum = 0;
for (const n of nodes)
	sum += n[2];
const data = { version: 1, files: ['synthetic'], events: ['cpu-clock'], unit: 'samples', diff: false,
	offcpu: false, series: 1, totals: [sum], strings, nfuncs: nfuncs + 1, funcs: funcsStr,
	nnodes: nodes.length, nodes: nodesStr, maxdepth: 61 };
const html = fs.readFileSync(page, 'utf8');
const a = html.indexOf('<script id="fg-data" type="application/json">'), b = html.indexOf('</script>', a);
const head = html.slice(0, a) + '<script id="fg-data" type="application/json">';
fs.writeFileSync(out, head + JSON.stringify(data).replace(/</g, '\\u003c') + html.slice(b));
console.log(`synthetic page: ${nfuncs} functions, ${nodes.length} nodes, ${sum} samples, ${fs.statSync(out).size} bytes`);
