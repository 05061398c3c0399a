// The script the HTML report runs in the browser: reads the JSON data block and draws each
// chart with uPlot. Plain ES2017 in a string (no bundler): it is inlined into the report as is.
export const CLIENT_SCRIPT = String.raw`(function () {
  "use strict";
  var palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  // Dash patterns cycle with the colours (5 vs 10: every pair in the first 10 series differs in
  // colour, and identical curves drawn on top of each other still show both patterns).
  var dashes = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4]];
  var data = JSON.parse(document.getElementById("fairsched-data").textContent);
  var drawn = 0;
  data.charts.forEach(function (c) {
    var el = document.getElementById(c.id);
    if (!el) return;
    try {
      var width = Math.max(320, Math.min(el.clientWidth || 900, 1100));
      var height = el.clientHeight > 100 ? el.clientHeight : 300;
      var series = [{ label: c.xLabel }];
      c.series.forEach(function (name, i) {
        series.push({
          label: name,
          stroke: palette[i % palette.length],
          dash: dashes[i % dashes.length],
          width: i % dashes.length === 0 ? 2 : 1.5,
          spanGaps: true,
          paths: c.step ? uPlot.paths.stepped({ align: 1 }) : undefined,
        });
      });
      var chart = new uPlot({
        width: width,
        height: height,
        scales: {
          x: c.logX ? { time: false, distr: 3, log: 10 } : { time: false },
          y: { range: function (u, min, max) {
            var lo = c.yRange[0] === null ? min : Math.min(c.yRange[0], min);
            var hi = c.yRange[1] === null ? max : Math.max(c.yRange[1], max);
            return hi > lo ? [lo, hi] : [lo, lo + 1];
          } },
        },
        axes: [{ label: c.xLabel }, { label: c.yLabel }],
        legend: { live: true },
        series: series,
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
