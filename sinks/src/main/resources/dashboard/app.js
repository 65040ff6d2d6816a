// specwatch dashboard: fetches /api/* and draws uPlot charts. No framework, no network beyond the server.
(function () {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const charts = [];
  let deployments = [];

  const fmt = (v, d) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));
  const isoMinute = (s) => new Date(s * 1000).toISOString().slice(0, 16);
  const fromInput = (v) => (v ? Math.floor(Date.parse(v + ':00Z') / 1000) : null);
  const utc = (s) => new Date(s * 1000).toISOString().replace('T', ' ').slice(0, 16);

  async function getJson(url) {
    const r = await fetch(url);
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
    return body;
  }

  function showError(e) {
    $('error').hidden = false;
    $('error').textContent = 'Error: ' + e.message;
    document.body.dataset.state = 'error';
  }

  // vertical markers for alerts: red = raised, green = cleared, labelled with the alert type
  function alertMarkers(alerts) {
    return {
      hooks: {
        draw: [(u) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.font = 10 * devicePixelRatio + 'px sans-serif';
          let drawn = 0;
          for (const a of alerts) {
            const x = u.valToPos(a.t, 'x', true);
            if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
            drawn++;
            ctx.strokeStyle = a.state === 'CLEARED' ? '#1e8449' : '#c0392b';
            ctx.fillStyle = ctx.strokeStyle;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            const nearRight = x > u.bbox.left + u.bbox.width * 0.6;
            ctx.textAlign = nearRight ? 'right' : 'left';
            ctx.textBaseline = 'top';
            const dx = (nearRight ? -4 : 4) * devicePixelRatio;
            ctx.fillText(a.type + ' ' + a.state.toLowerCase(), x + dx, u.bbox.top + 4 * devicePixelRatio);
          }
          ctx.restore();
          u.root.dataset.markers = String(drawn); // for tests: the annotations drawn on this chart
        }],
      },
    };
  }

  function chart(id, opts, data) {
    const el = $(id);
    el.innerHTML = '';
    const width = Math.max(320, el.clientWidth - 10);
    const u = new uPlot(Object.assign({ width: width, height: 260 }, opts), data, el);
    // for tests and curious readers: how many non-null data points the chart plots
    el.dataset.points = String(data.slice(1).reduce((n, ys) => n + ys.filter((v) => v !== null && v !== undefined).length, 0));
    charts.push(u);
    return u;
  }

  function line(label, color, dash, extra) {
    return Object.assign({ label: label, stroke: color, width: 2, dash: dash, spanGaps: false,
      value: (u, v) => fmt(v, 2) }, extra || {});
  }

  function render(win, alerts) {
    while (charts.length) charts.pop().destroy();
    const s = win.summary;
    const box = $('verdict');
    box.className = 'verdict ' + s.verdict;
    $('verdict-text').textContent = win.deployment + ': ' + s.verdict_text;
    $('range-text').textContent = 'windows starting ' + utc(win.from) + ' to ' + utc(win.to) + ' UTC';
    const figures = [
      ['speedup S', fmt(s.speedup, 2)], ['τ', fmt(s.tau, 2)], ['break-even τ*', fmt(s.tau_star, 2)],
      ['effective tok/s', fmt(s.effective_tok_s, 1)], ['baseline tok/s', fmt(s.baseline_tok_s, 1)],
      ['windows', s.windows], ['cycles', s.cycles],
    ];
    $('figures').innerHTML = '';
    for (const [k, v] of figures) {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      const div = document.createElement('div');
      div.append(dt, dd);
      $('figures').append(div);
    }

    const w = win.windows;
    const x = w.map((p) => p.t);
    const col = (k) => w.map((p) => p[k]);
    const markers = alertMarkers(alerts);
    const timeOpts = (series) => ({ series: [{ label: 'window (UTC)', value: (u, v) => (v == null ? '–' : utc(v)) }].concat(series),
      scales: { x: { time: true } }, tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'), plugins: [markers] });

    chart('chart-tau', timeOpts([line('τ', '#2e86c1'), line('τ* break-even', '#c0392b', [6, 4])]),
      [x, col('tau'), col('tau_star')]);
    chart('chart-toks', timeOpts([line('effective tok/s', '#2e86c1'), line('baseline tok/s', '#7f8c8d', [6, 4])]),
      [x, col('effective_tok_s'), col('baseline_tok_s')]);
    const ms = [];
    const msData = [x];
    const colors = { draft: '#8e44ad', verify: '#d35400', cycle: '#16a085' };
    const dashes = { p50: undefined, p95: [8, 4], p99: [2, 3] };
    for (const part of ['draft', 'verify', 'cycle']) {
      for (const q of ['p50', 'p95', 'p99']) {
        ms.push(line(part + ' ' + q, colors[part], dashes[q]));
        msData.push(col(part + '_ms_' + q));
      }
    }
    chart('chart-ms', timeOpts(ms), msData);

    const range = s.per_position_range;
    const latest = s.per_position_latest;
    const n = Math.max(range.length, latest.length);
    const pos = Array.from({ length: n }, (_, i) => i + 1);
    const pad = (a) => pos.map((_, i) => (i < a.length ? a[i] : null));
    chart('chart-positions', {
      series: [{ label: 'draft position' },
        line('range mean', '#2e86c1', undefined, { points: { size: 8 } }),
        line('latest window', '#f39c12', [6, 4], { points: { size: 8 } })],
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [{ values: (u, vals) => vals.map((v) => (Number.isInteger(v) ? 'pos ' + v : '')) }, {}],
    }, [pos, pad(range), pad(latest)]);

    const tbody = $('alerts').querySelector('tbody');
    tbody.innerHTML = '';
    for (const a of alerts) {
      const tr = document.createElement('tr');
      tr.className = a.state;
      for (const v of [utc(a.t), a.state, a.type, a.metric || '', fmt(a.observed, 3), fmt(a.reference, 3),
        a.p_value === null ? '' : String(a.p_value), a.attributed_change || '', a.message]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      tbody.append(tr);
    }
    if (!alerts.length) {
      const tr = document.createElement('tr');
      const td = document.createElement('td');
      td.colSpan = 9;
      td.textContent = 'no alerts in this range';
      tr.append(td);
      tbody.append(tr);
    }
    document.body.dataset.state = 'ready';
    document.body.dataset.charts = String(charts.length);
  }

  function rangeFor(dep) {
    const preset = $('preset').value;
    if (preset === 'custom') {
      return { from: fromInput($('from').value), to: fromInput($('to').value) };
    }
    const end = dep.last_window_end;
    const spans = { '1h': 3600, '6h': 21600, '24h': 86400, '7d': 604800, '30d': 2592000 };
    return { from: preset === 'all' ? dep.first_window : end - spans[preset], to: end };
  }

  async function show() {
    $('error').hidden = true;
    document.body.dataset.state = 'loading';
    const dep = deployments.find((d) => d.id === $('deployment').value);
    if (!dep) return;
    const r = rangeFor(dep);
    $('from').value = r.from ? isoMinute(r.from) : '';
    $('to').value = r.to ? isoMinute(r.to) : '';
    const q = '?deployment=' + encodeURIComponent(dep.id) + (r.from ? '&from=' + r.from : '') + (r.to ? '&to=' + r.to : '');
    history.replaceState(null, '', q + '&preset=' + $('preset').value);
    try {
      const [win, al] = await Promise.all([getJson('api/windows' + q), getJson('api/alerts' + q)]);
      render(win, al.alerts);
    } catch (e) {
      showError(e);
    }
  }

  async function init() {
    try {
      deployments = (await getJson('api/deployments')).deployments;
    } catch (e) {
      showError(e);
      return;
    }
    const sel = $('deployment');
    for (const d of deployments) {
      const o = document.createElement('option');
      o.value = d.id;
      o.textContent = d.id + ' (' + d.windows + ' windows)';
      sel.append(o);
    }
    if (!deployments.length) {
      $('verdict-text').textContent = 'No window results in ClickHouse yet.';
      document.body.dataset.state = 'ready';
      return;
    }
    if (params.get('deployment') && deployments.some((d) => d.id === params.get('deployment'))) {
      sel.value = params.get('deployment');
    }
    if (params.get('from') || params.get('to')) {
      $('preset').value = 'custom';
      const toSec = (v) => (/^\d+$/.test(v) ? Number(v) : Math.floor(Date.parse(v) / 1000));
      if (params.get('from')) $('from').value = isoMinute(toSec(params.get('from')));
      if (params.get('to')) $('to').value = isoMinute(toSec(params.get('to')));
    } else if (params.get('preset')) {
      $('preset').value = params.get('preset');
    }
    $('controls').addEventListener('submit', (e) => { e.preventDefault(); show(); });
    sel.addEventListener('change', show);
    $('preset').addEventListener('change', () => { if ($('preset').value !== 'custom') show(); });
    for (const id of ['from', 'to']) $(id).addEventListener('change', () => { $('preset').value = 'custom'; });
    await show();
  }

  init();
})();
