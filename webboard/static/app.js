// The Wuzi board page: draws the game the server publishes and sends the
// user's actions. Everything here is local; nothing loads from the internet.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const CELL = 36, MARGIN = 30;

let cfg = null;      // GET /api/config
let S = null;        // the game's latest snapshot
let gameId = null;
let edit = null;     // the stones of a position being set up, or null
let pollGen = 0;

function colName(x) { return x < 26 ? String.fromCharCode(97 + x) : '(' + x + ')'; }
function moveName(m) { return colName(m[0]) + (m[1] + 1); }

async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) {
    opt.headers['Content-Type'] = 'application/json';
    opt.body = JSON.stringify(body);
  }
  const r = await fetch(path, opt);
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: r.status + ' ' + r.statusText }; }
  if (!r.ok) throw new Error(j && j.error ? j.error : r.status + ' ' + r.statusText);
  return j;
}

function notice(msg) {
  const n = $('notice');
  n.textContent = msg || '';
  n.hidden = !msg;
}

async function action(name, body) {
  if (!gameId) return;
  try {
    const s = await api('POST', '/api/games/' + gameId + '/' + name, body || {});
    notice('');
    if (s && s.v !== undefined) { S = s; render(); }
  } catch (e) {
    notice(e.message);
  }
}

async function init() {
  cfg = await api('GET', '/api/config');
  const players = [['-1', 'Human']].concat(cfg.engines.map((n, i) => [String(i), n]));
  for (const id of ['black', 'white']) {
    $(id).innerHTML = '';
    for (const [v, n] of players) $(id).add(new Option(n, v));
  }
  $('black').value = '-1';
  $('white').value = '0';
  for (const [i, n] of cfg.engines.entries()) $('analyst').add(new Option(n, String(i)));
  for (const r of cfg.rules) $('rule').add(new Option(r.name, String(r.num)));
  for (const s of cfg.sizes) { const o = document.createElement('option'); o.value = s; $('sizes').appendChild(o); }
  $('size').min = cfg.minSize; $('size').max = cfg.maxSize;
  drawEmpty(15, 15);
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  const size = parseInt($('size').value, 10);
  const body = {
    width: size, height: size,
    rule: parseInt($('rule').value, 10),
    turnMs: Math.round(parseFloat($('turn').value) * 1000),
    matchMs: Math.round(parseFloat($('match').value || '0') * 1000),
    black: parseInt($('black').value, 10),
    white: parseInt($('white').value, 10),
    analyst: parseInt($('analyst').value || '0', 10),
    swap2: $('opening').checked,
  };
  if (gameId) closeGame(false);
  edit = null;
  try {
    S = await api('POST', '/api/games', body);
  } catch (e) {
    notice(e.message);
    return;
  }
  notice('');
  gameId = S.id;
  render();
  poll(gameId, ++pollGen);
}

async function poll(id, gen) {
  while (gen === pollGen && id === gameId) {
    try {
      const r = await fetch('/api/games/' + id + '?v=' + (S ? S.v : 0));
      if (gen !== pollGen) return;
      if (r.status === 404) { status('The game was closed on the server; start a new one.', true); gameId = null; render(); return; }
      if (!r.ok) throw new Error(r.status);
      const s = await r.json();
      if (gen !== pollGen) return;
      S = s;
      render();
      if (s.closed) { gameId = null; return; }
    } catch (e) {
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
}

function closeGame(keepalive) {
  if (!gameId) return;
  const id = gameId;
  gameId = null;
  pollGen++;
  fetch('/api/games/' + id + '/close', { method: 'POST', keepalive: keepalive, headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(() => {});
}

function status(text, over) {
  $('status').textContent = text;
  $('status').className = 'status' + (over ? ' over' : '');
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function cx(x) { return MARGIN + x * CELL; }

function drawEmpty(w, h) {
  const svg = $('board');
  svg.innerHTML = '';
  svg.setAttribute('viewBox', `0 0 ${2 * MARGIN + (w - 1) * CELL} ${2 * MARGIN + (h - 1) * CELL}`);
  el('rect', { class: 'wood', x: 0, y: 0, width: 2 * MARGIN + (w - 1) * CELL, height: 2 * MARGIN + (h - 1) * CELL, rx: 6 }, svg);
  const g = el('g', { class: 'grid' }, svg);
  for (let x = 0; x < w; x++) el('line', { x1: cx(x), y1: cx(0), x2: cx(x), y2: cx(h - 1) }, g);
  for (let y = 0; y < h; y++) el('line', { x1: cx(0), y1: cx(y), x2: cx(w - 1), y2: cx(y) }, g);
  for (let x = 0; x < w; x++) {
    el('text', { class: 'coord', x: cx(x), y: MARGIN / 2 - 2 }, svg).textContent = colName(x);
  }
  for (let y = 0; y < h; y++) {
    el('text', { class: 'coord', x: MARGIN / 2 - 2, y: cx(y) }, svg).textContent = y + 1;
  }
  const stars = [];
  if (w >= 13 && h >= 13) {
    for (const a of [3, Math.floor(w / 2), w - 4]) for (const b of [3, Math.floor(h / 2), h - 4]) stars.push([a, b]);
  } else stars.push([Math.floor(w / 2), Math.floor(h / 2)]);
  for (const [a, b] of stars) el('circle', { class: 'star', cx: cx(a), cy: cx(b), r: 3 }, svg);
  return svg;
}

function stone(svg, x, y, color, num, cls) {
  el('circle', { class: (cls || 'stone') + ' ' + color, cx: cx(x), cy: cx(y), r: CELL * 0.45, 'data-x': x, 'data-y': y }, svg);
  if (num !== null && num !== undefined) {
    const t = el('text', { class: (cls === 'ghost' ? 'ghost-num' : 'num on-' + color), x: cx(x), y: cx(y) }, svg);
    t.textContent = num;
  }
}

function render() {
  if (!S) return;
  document.body.dataset.game = S.id;
  const w = S.width, h = S.height;
  const svg = drawEmpty(w, h);
  svg.classList.toggle('edit', !!edit);
  const moves = edit || S.moves;
  const showNum = $('numbers').checked;
  const occupied = new Set(moves.map((m) => m[0] + ',' + m[1]));
  moves.forEach((m, i) => stone(svg, m[0], m[1], i % 2 ? 'white' : 'black', showNum ? i + 1 : null));
  if (moves.length) {
    const m = moves[moves.length - 1];
    el('circle', { class: 'last', cx: cx(m[0]), cy: cx(m[1]), r: CELL * 0.49 }, svg);
  }
  if (!edit) {
    drawPV(svg, new Set(occupied));
    for (const f of S.forbidden || []) {
      const d = CELL * 0.2;
      const g = el('g', { class: 'forbid', 'data-x': f[0], 'data-y': f[1] }, svg);
      el('line', { x1: cx(f[0]) - d, y1: cx(f[1]) - d, x2: cx(f[0]) + d, y2: cx(f[1]) + d }, g);
      el('line', { x1: cx(f[0]) - d, y1: cx(f[1]) + d, x2: cx(f[0]) + d, y2: cx(f[1]) - d }, g);
    }
    for (const c of S.nbest || []) {
      if (occupied.has(c.x + ',' + c.y)) continue;
      el('rect', { class: 'cand', x: cx(c.x) - 14, y: cx(c.y) - 11, width: 28, height: 22, rx: 4, 'data-rank': c.rank }, svg);
      el('text', { class: 'cand-text', x: cx(c.x), y: cx(c.y) }, svg).textContent = c.rank + (c.score ? ':' + shortScore(c.score) : '');
    }
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const r = el('rect', { class: 'hit', x: cx(x) - CELL / 2, y: cx(y) - CELL / 2, width: CELL, height: CELL, 'data-x': x, 'data-y': y }, svg);
    r.addEventListener('click', () => cellClick(x, y));
  }
  renderPanel();
}

function shortScore(s) {
  const m = /^(win|lose|mate) in (\d+)/.exec(s);
  if (m) return (m[1] === 'lose' ? '-' : '+') + 'W' + m[2];
  return s;
}

// drawPV draws the engine's principal variation as numbered ghost stones:
// from the position it was searching, or, once its first move is on the
// board, the rest of it.
function drawPV(svg, occupied) {
  const info = S.info;
  if (!$('showpv').checked || !info || !info.pv || !info.pv.length || S.over) return;
  let pv = info.pv, start = info.ply;
  if (info.ply === S.moves.length - 1) {
    const last = S.moves[S.moves.length - 1];
    if (pv[0][0] !== last[0] || pv[0][1] !== last[1]) return;
    pv = pv.slice(1); start++;
  } else if (info.ply !== S.moves.length) return;
  pv.forEach((m, i) => {
    if (m[0] < 0 || m[1] < 0 || m[0] >= S.width || m[1] >= S.height || occupied.has(m[0] + ',' + m[1])) return;
    occupied.add(m[0] + ',' + m[1]);
    stone(svg, m[0], m[1], (start + i) % 2 ? 'white' : 'black', i + 1, 'ghost');
  });
}

function renderPanel() {
  const p = S.players;
  const clock = (pl) => pl.leftMs >= 0 ? ' ' + (pl.leftMs / 1000).toFixed(1) + 's' : '';
  $('players').textContent = `● ${p[0].name}${clock(p[0])}  vs  ○ ${p[1].name}${clock(p[1])}  ·  ${S.rule} ${S.width}×${S.height}`;
  const toMoveName = S.toMove === 'black' ? 'Black (' + p[0].name + ')' : 'White (' + p[1].name + ')';
  let text;
  if (edit) text = `Setting up: click to place ${edit.length % 2 ? 'White' : 'Black'}; click the last stone to remove it; Done when ready.`;
  else if (S.closed) text = 'The game is closed.';
  else if (S.over) text = S.result;
  else if (S.phase) text = swap2Text();
  else if (S.thinking === 'hint') text = 'Looking for the best moves…';
  else if (S.thinking) text = toMoveName + ' is thinking…';
  else if (S.paused) text = 'Paused. ' + toMoveName + ' to move; press Resume.';
  else text = toMoveName + ' to move' + (S.actor === 'human' ? ': click a point.' : '.');
  if (!edit && !S.over && S.forbidden && S.forbidden.length) text += ` Black may not play the ${S.forbidden.length} marked point${S.forbidden.length > 1 ? 's' : ''}.`;
  status(text, S.over && !edit);
  if (S.notice) notice(S.notice);
  if (S.over && S.output && S.output.length) notice('The engine\'s last output:\n' + S.output.join('\n'));
  const humanTurn = !S.over && S.actor === 'human' && !S.thinking;
  const idle = !S.thinking;
  $('undo').disabled = !gameId || !!edit || (S.moves.length <= S.opening && !S.phase);
  $('redo').disabled = !gameId || !!edit || S.redo === 0 || S.over;
  $('stop').disabled = !gameId || !S.thinking;
  $('pause').disabled = !gameId || S.over || !!edit;
  $('pause').textContent = S.paused ? 'Resume' : 'Pause';
  $('hint').disabled = !gameId || !idle || S.over || !!S.phase || !!edit || (S.actor === 'engine' && !S.paused);
  $('edit').hidden = !!edit;
  $('edit').disabled = !gameId || !idle;
  for (const id of ['edit-done', 'edit-cancel', 'edit-clear']) $(id).hidden = !edit;
  $('copy').disabled = !gameId;
  for (const [id, f] of [['save-psq', 'game.psq'], ['save-sgf', 'game.sgf']]) {
    $(id).href = gameId ? '/api/games/' + gameId + '/' + f + '?download' : '#';
  }
  // swap2 decisions
  const sw = $('swap2');
  const deciding = humanTurn && (S.phase === 'swap2-choose3' || S.phase === 'swap2-choose5');
  sw.hidden = !deciding;
  $('swap2-two').hidden = S.phase !== 'swap2-choose3';
  $('swap2-text').textContent = S.phase === 'swap2-choose3' ? 'Swap2, three stones:' : 'Swap2, five stones:';
  // engine info
  const info = S.info;
  $('info-head').textContent = info ? `${info.engine} (${info.color})` + (S.thinking && S.thinking !== 'hint' ? ' thinking…' : '') : 'Engine';
  $('info-head').className = 'info-head' + (S.thinking ? ' thinking' : '');
  $('i-depth').textContent = info ? info.depth || '' : '';
  $('i-score').textContent = info ? info.score || '' : '';
  $('i-nodes').textContent = info ? info.nodes || '' : '';
  $('i-speed').textContent = info ? (info.speed ? info.speed + '/s' : '') : '';
  $('i-pv').textContent = info && info.pv ? info.pv.map(moveName).join(' ') : '';
  const nl = $('nbest-list');
  nl.innerHTML = '';
  for (const c of S.nbest || []) {
    const li = document.createElement('li');
    li.textContent = `${moveName([c.x, c.y])}  ${c.score || ''}  d${c.depth || '?'}  ${(c.pv || []).slice(1).map(moveName).join(' ')}`;
    nl.appendChild(li);
  }
  $('log').textContent = (S.log || []).join('\n');
}

function swap2Text() {
  const p = S.players;
  switch (S.phase) {
    case 'swap2-place3': return `Swap2: ${p[0].name} places three stones (Black, White, Black).`;
    case 'swap2-choose3': return `Swap2: ${p[1].name} takes Black, takes White, or places two more stones.`;
    case 'swap2-place2': return `Swap2: ${p[1].name} places the 4th (White) and 5th (Black) stones.`;
    case 'swap2-choose5': return `Swap2: ${p[0].name} chooses a colour.`;
  }
  return '';
}

function cellClick(x, y) {
  if (edit) {
    const i = edit.findIndex((m) => m[0] === x && m[1] === y);
    if (i === edit.length - 1 && i >= 0) edit.pop();
    else if (i < 0) edit.push([x, y]);
    render();
    return;
  }
  if (!gameId || !S || S.over) return;
  action('move', { x, y });
}

async function copyText() {
  if (!gameId) return;
  try {
    const r = await fetch('/api/games/' + gameId + '/position.txt');
    const t = await r.text();
    $('text').value = t;
    $('text').hidden = false;
    try { await navigator.clipboard.writeText(t); notice(''); } catch (e) { notice('Copy the text below (the browser refused the clipboard).'); }
  } catch (e) { notice(e.message); }
}

async function loadFile(ev) {
  const f = ev.target.files[0];
  ev.target.value = '';
  if (!f || !gameId) return;
  if (f.size > 512 * 1024) { notice('That file is too large for a game record.'); return; }
  const text = await f.text();
  const format = /\.sgf$/i.test(f.name) || /^\s*\(/.test(text) ? 'sgf' : 'psq';
  await action('load', { format, text });
}

function wire() {
  $('new-form').addEventListener('submit', newGame);
  $('undo').onclick = () => action('undo');
  $('redo').onclick = () => action('redo');
  $('stop').onclick = () => action('stop');
  $('pause').onclick = () => action(S && S.paused ? 'resume' : 'pause');
  $('hint').onclick = () => action('hint', { n: parseInt($('nbest').value, 10) });
  $('numbers').onchange = render;
  $('showpv').onchange = render;
  $('edit').onclick = () => { if (S) { edit = S.moves.map((m) => m.slice()); render(); } };
  $('edit-cancel').onclick = () => { edit = null; render(); };
  $('edit-clear').onclick = () => { edit = []; render(); };
  $('edit-done').onclick = async () => { const moves = edit; edit = null; await action('setup', { moves }); render(); };
  $('swap2-black').onclick = () => action('swap2', { choice: 'black' });
  $('swap2-white').onclick = () => action('swap2', { choice: 'white' });
  $('swap2-two').onclick = () => action('swap2', { choice: 'two' });
  $('copy').onclick = copyText;
  $('load-file').addEventListener('change', loadFile);
  window.addEventListener('pagehide', () => closeGame(true));
}

wire();
init().catch((e) => notice('Cannot reach the board server: ' + e.message));
