// The script the HTML report runs in the browser: reads the JSON data block and draws each
// chart with uPlot. Plain ES2017 in a string (no bundler): it is inlined into the report as is.
// Lines (steps for time series and CDFs), grouped bars over categories (x = category index), and
// intervals: a translucent band around a line, error bars with caps on a bar or point.
export const CLIENT_SCRIPT = String.raw`(function () {
  "use strict";
  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  // Dash patterns cycle with the colours (5 vs 10: every pair in the first 10 series differs in
  // colour, and identical curves drawn on top of each other still show both patterns).
  var dashes = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4]];
  var data = JSON.parse(document.getElementById("fairsched-data").textContent);
  var drawn = 0;

  function rgba(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + (n >> 16 & 255) + "," + (n >> 8 & 255) + "," + (n & 255) + "," + a + ")";
  }

  // Intervals: a band under a line's series (the drawClear hook, before axes and series), error
  // bars over bars (the draw hook, after them).
  function drawBands(c) {
    return function (u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      c.bands.forEach(function (b, i) {
        if (!b || !u.series[i + 1].show) return;
        var xs = u.data[0], lo = b[0], hi = b[1], color = palette[i % palette.length];
        var X = function (v) { return u.valToPos(v, "x", true); };
        var Y = function (v) { return u.valToPos(v, "y", true); };
        if (c.bars || xs.length === 1) {
          ctx.strokeStyle = "#1b1f23";
          ctx.lineWidth = Math.max(1, devicePixelRatio);
          var cap = 4 * devicePixelRatio;
          for (var k = 0; k < xs.length; k++) {
            if (lo[k] === null || hi[k] === null || xs[k] === null) continue;
            var x = X(xs[k]);
            ctx.beginPath();
            ctx.moveTo(x, Y(lo[k])); ctx.lineTo(x, Y(hi[k]));
            ctx.moveTo(x - cap, Y(lo[k])); ctx.lineTo(x + cap, Y(lo[k]));
            ctx.moveTo(x - cap, Y(hi[k])); ctx.lineTo(x + cap, Y(hi[k]));
            ctx.stroke();
          }
        } else {
          ctx.fillStyle = rgba(color, 0.12);
          for (var j = 0; j + 1 < xs.length; j++) {
            var a = j, z = j + 1;
            // the next point that has an interval (a series sampled at other x has nulls between)
            while (z < xs.length && (lo[z] === null || hi[z] === null)) z++;
            if (z >= xs.length || lo[a] === null || hi[a] === null || xs[a] === null || xs[z] === null) continue;
            ctx.beginPath();
            ctx.moveTo(X(xs[a]), Y(hi[a])); ctx.lineTo(X(xs[z]), Y(hi[z]));
            ctx.lineTo(X(xs[z]), Y(lo[z])); ctx.lineTo(X(xs[a]), Y(lo[a]));
            ctx.closePath();
            ctx.fill();
            j = z - 1;
          }
        }
      });
      ctx.restore();
    };
  }

  // Bars: each bar's value above it (a bar cut at the axis' end by yCap shows its value there).
  function drawValues(c) {
    return function (u) {
      var ctx = u.ctx;
      ctx.save();
      ctx.font = Math.round(11 * devicePixelRatio) + "px system-ui, sans-serif";
      ctx.textAlign = "center";
      var top = u.scales.y.max;
      for (var i = 1; i < u.data.length; i++) {
        if (!u.series[i].show) continue;
        for (var k = 0; k < u.data[0].length; k++) {
          var v = u.data[i][k];
          if (v === null || u.data[0][k] === null) continue;
          var cut = v > top;
          var text = (Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : String(Number(v.toPrecision(3)))) + (cut ? "\u2191" : "");
          var y = u.valToPos(cut ? top : v, "y", true) + (cut ? 14 * devicePixelRatio : -4 * devicePixelRatio);
          ctx.fillStyle = cut ? "#ffffff" : "#1b1f23";
          ctx.fillText(text, u.valToPos(u.data[0][k], "x", true), y);
        }
      }
      ctx.restore();
    };
  }

  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (!el) return;
    try {
      var width = Math.max(320, Math.min(el.clientWidth || 900, 1100));
      var height = el.clientHeight > 100 ? el.clientHeight : 300;
      var series = [{ label: c.xLabel }];
      c.series.forEach(function (name, i) {
        var color = palette[i % palette.length];
        series.push(c.bars ? {
          label: name,
          stroke: color,
          fill: rgba(color, 0.75),
          width: 1,
          points: { show: false },
          paths: uPlot.paths.bars({ size: [0.9, 80], align: 0 }),
        } : {
          label: name,
          stroke: color,
          dash: dashes[i % dashes.length],
          width: i % dashes.length === 0 ? 2 : 1.5,
          spanGaps: true,
          paths: c.step ? uPlot.paths.stepped({ align: 1 }) : undefined,
        });
      });
      var cats = c.categories;
      var xScale = c.logX ? { time: false, distr: 3, log: 10 } : { time: false };
      // the x axis ends where the data ends (uPlot's own range rounds a log axis up to the next
      // power of 10: 100,000 s for data ending near 11,000)
      if (cats) xScale.range = function () { return [-0.5, cats.length - 0.5]; };
      else xScale.range = function (u, min, max) {
        // a log axis starts at a power of 10, so its ticks read 10, 100, 1,000
        if (c.logX && min > 0) min = Math.pow(10, Math.floor(Math.log10(min) + 1e-9));
        return max > min ? [min, max] : [min, min + 1];
      };
      var xAxis = { label: c.xLabel };
      if (cats) {
        xAxis.splits = function () { return cats.map(function (_, k) { return k; }); };
        xAxis.values = function (u, splits) { return splits.map(function (k) { return cats[k] === undefined ? "" : cats[k]; }); };
        xAxis.grid = { show: false };
      }
      var hasBands = c.bands.some(function (b) { return b !== null; });
      var chart = new uPlot({
        width: width,
        height: height,
        scales: {
          x: xScale,
          y: { range: function (u, min, max) {
            // the intervals fit too, except past a fixed end (a fraction's interval from 2 seeds
            // can span -4..5: it is cut at the plot's edge rather than squashing the bars)
            c.bands.forEach(function (b) {
              if (!b) return;
              if (c.yRange[0] === null) b[0].forEach(function (v) { if (v !== null && v < min) min = v; });
              if (c.yRange[1] === null) b[1].forEach(function (v) { if (v !== null && v > max) max = v; });
            });
            var lo = c.yRange[0] === null ? min : Math.min(c.yRange[0], min);
            var hi = c.yRange[1] === null ? max : Math.max(c.yRange[1], max);
            if (c.bars) lo = Math.min(lo, 0);
            if (c.yCap !== null) hi = c.yCap;
            return hi > lo ? [lo, hi] : [lo, lo + 1];
          } },
        },
        axes: [xAxis, { label: c.yLabel }],
        // names only: a live legend shows "--" until the cursor is on the chart
        legend: { live: false },
        series: series,
        hooks: (function () {
          var hooks = !hasBands ? {} : c.bars || c.data[0].length === 1 ? { draw: [drawBands(c)] } : { drawClear: [drawBands(c)] };
          if (c.bars && (!hasBands || c.yCap !== null)) hooks.draw = (hooks.draw || []).concat([drawValues(c)]);
          return hooks;
        })(),
      }, c.data, el);
      el.setAttribute("data-drawn", "1");
      drawn++;
      window.addEventListener("resize", function () {
        chart.setSize({ width: Math.max(320, Math.min(el.clientWidth || 900, 1100)), height: height });
      });
    } catch (e) {
      el.textContent = "chart failed: " + (e && e.message ? e.message : String(e));
      console.error("fairsched report: chart " + c.id + " failed", e);
    }
  });
  document.body.setAttribute("data-charts-drawn", String(drawn));
})();`;
