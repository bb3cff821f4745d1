// Draws the report's interactive charts with uPlot from the JSON in #stackbench-charts, and writes what it drew
// into #chart-status (data-charts, data-series, data-errors) so that a test can check a page as a reader sees it.
(function () {
  "use strict";
  var PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22"];
  var status = document.getElementById("chart-status");
  var errors = [];
  window.addEventListener("error", function (event) {
    errors.push(String(event.message));
    status.setAttribute("data-errors", errors.join(" | "));
  });

  function color(index) { return PALETTE[index % PALETTE.length]; }

  function percentileLabel(x) {
    // The spectrum's x is 1 / (1 - p): 10 is p90, 100 is p99, 1000 is p99.9.
    var p = 100 - 100 / x;
    return (Math.round(p * 1000) / 1000) + "%";
  }

  function fixed(value) {
    if (value == null) { return "-"; }
    var magnitude = Math.abs(value);
    return magnitude >= 100 ? value.toFixed(0) : magnitude >= 1 ? value.toFixed(2) : value.toPrecision(3);
  }

  // Shades the warmup (x < 0) and draws the planned end of the measured window and any intervals.
  function overlays(spec) {
    return {
      hooks: {
        drawAxes: [function (u) {
          if (!spec.shadeBelow && spec.shadeBelow !== 0) { return; }
          var left = u.bbox.left, top = u.bbox.top, height = u.bbox.height;
          var edge = u.valToPos(spec.shadeBelow, "x", true);
          var from = Math.max(left, u.valToPos(u.scales.x.min, "x", true));
          if (edge > from) {
            u.ctx.save();
            u.ctx.fillStyle = "rgba(120,120,120,0.15)";
            u.ctx.fillRect(from, top, Math.min(edge, left + u.bbox.width) - from, height);
            u.ctx.restore();
          }
        }],
        draw: [function (u) {
          var ctx = u.ctx;
          ctx.save();
          (spec.marks || []).forEach(function (x) {
            var px = u.valToPos(x, "x", true);
            ctx.strokeStyle = "#555";
            ctx.setLineDash([4, 4]);
            ctx.beginPath();
            ctx.moveTo(px, u.bbox.top);
            ctx.lineTo(px, u.bbox.top + u.bbox.height);
            ctx.stroke();
          });
          ctx.setLineDash([]);
          (spec.intervals || []).forEach(function (interval) {
            var px = u.valToPos(interval.x, "x", true);
            ctx.strokeStyle = color(interval.color);
            ctx.lineWidth = 3;
            ctx.beginPath();
            ctx.moveTo(px, u.valToPos(interval.lower, "y", true));
            ctx.lineTo(px, u.valToPos(interval.upper, "y", true));
            ctx.stroke();
          });
          ctx.restore();
        }]
      }
    };
  }

  function options(spec, width) {
    var series = [{ label: spec.xLabel, value: spec.xLog ? function (u, v) { return v == null ? "-" : percentileLabel(v); }
        : spec.categories ? function (u, v) { return v == null ? "-" : spec.categories[Math.round(v) - 1] || ""; }
        : function (u, v) { return v == null ? "-" : fixed(v); } }];
    spec.series.forEach(function (s) {
      var c = color(s.color);
      series.push({
        label: s.label,
        stroke: c,
        width: s.points ? 0 : 1.5,
        dash: s.dash ? [6, 4] : undefined,
        spanGaps: false,
        paths: s.points ? function () { return null; } : undefined,
        points: s.points ? { show: true, size: s.size || 7, stroke: c, fill: s.hollow ? "#fff" : c }
          : { show: false },
        value: function (u, v) { return fixed(v); }
      });
    });
    var xAxis = { label: spec.xLabel, stroke: "#333" };
    if (spec.xLog) {
      xAxis.splits = function (u) {
        var out = [];
        for (var v = 1; v <= u.scales.x.max * 1.0001; v *= 10) { if (v >= u.scales.x.min) { out.push(v); } }
        return out;
      };
      xAxis.values = function (u, splits) { return splits.map(percentileLabel); };
    }
    if (spec.categories) {
      xAxis.splits = function () { return spec.categories.map(function (_, i) { return i + 1; }); };
      xAxis.values = function (u, splits) { return splits.map(function (v) { return spec.categories[v - 1]; }); };
    }
    var scales = { x: spec.xLog ? { time: false, distr: 3 } : { time: false } };
    if (spec.categories) {
      scales.x.range = function () { return [0.5, spec.categories.length + 0.5]; };
    }
    if (spec.yLog) {
      scales.y = { distr: 3 };
    }
    return {
      title: spec.title,
      width: width,
      height: 320,
      scales: scales,
      cursor: { drag: { x: true, y: false } },
      legend: { live: true },
      series: series,
      axes: [xAxis, { label: spec.yLabel, stroke: "#333", size: 60 }],
      plugins: [overlays(spec)]
    };
  }

  function draw() {
    var specs = JSON.parse(document.getElementById("stackbench-charts").textContent);
    var drawn = 0, seriesDrawn = 0, seriesPlanned = 0;
    specs.forEach(function (spec) {
      var holder = document.getElementById(spec.id);
      if (!holder) { return; }
      var width = Math.max(400, Math.min(1060, holder.clientWidth || 1000));
      var data = [spec.x].concat(spec.series.map(function (s) { return s.values; }));
      var plot = new uPlot(options(spec, width), data, holder);
      var withData = spec.series.filter(function (s) {
        return s.values.some(function (v) { return v != null; });
      }).length;
      holder.setAttribute("data-series-planned", spec.series.length);
      holder.setAttribute("data-series-drawn", withData);
      holder.setAttribute("data-canvas", plot.ctx ? "yes" : "no");
      holder.setAttribute("data-intervals", (spec.intervals || []).length);
      drawn++;
      seriesDrawn += withData;
      seriesPlanned += spec.series.length;
    });
    status.setAttribute("data-charts", drawn);
    status.setAttribute("data-charts-planned", specs.length);
    status.setAttribute("data-series", seriesDrawn);
    status.setAttribute("data-series-planned", seriesPlanned);
    status.setAttribute("data-done", "yes");
  }

  try {
    draw();
  } catch (e) {
    errors.push(String(e && e.stack || e));
    status.setAttribute("data-errors", errors.join(" | "));
    throw e;
  }
})();
