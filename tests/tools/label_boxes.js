// label_boxes.js — injected by tests/check_report.c into a copy of the
// report (the report itself has no script) and run by headless Chromium
// with --dump-dom. For every cost chart it measures the boxes the browser
// laid out for its text (getBoundingClientRect) and writes, into a <pre
// id="geom">, how many pairs of text boxes overlap, how many break-even
// labels reach down to the x axis, and where the job's current use sits
// along the hours axis (0 = left edge, 1 = right edge).
(function () {
	var lines = [], overlaps = 0, below = 0, labels = 0, charts = 0;
	function hit(a, b) {
		var e = 0.5; // sub-pixel touching is not an overlap
		return a.left < b.right - e && b.left < a.right - e && a.top < b.bottom - e &&
		       b.top < a.bottom - e;
	}
	document.querySelectorAll('svg.chart').forEach(function (svg, c) {
		charts++;
		var ts = Array.prototype.filter.call(svg.querySelectorAll('text'), function (t) {
			return t.textContent.trim() !== '';
		});
		var rs = ts.map(function (t) { return t.getBoundingClientRect(); });
		for (var i = 0; i < ts.length; i++)
			for (var j = i + 1; j < ts.length; j++)
				if (hit(rs[i], rs[j])) {
					overlaps++;
					lines.push('overlap ' + c + ': "' + ts[i].textContent + '" / "' +
						   ts[j].textContent + '"');
				}
		var axis = svg.querySelector('line.axis').getBoundingClientRect();
		svg.querySelectorAll('.breakeven text').forEach(function (t) {
			labels++;
			if (t.getBoundingClientRect().bottom > axis.top)
				below++, lines.push('on the axis ' + c + ': ' + t.textContent);
		});
		var use = svg.querySelector('line.use');
		if (use) {
			var u = use.getBoundingClientRect();
			lines.push('use ' + c + '=' + ((u.left - axis.left) / axis.width).toFixed(3));
		}
	});
	var pre = document.createElement('pre');
	pre.id = 'geom';
	pre.textContent = 'charts=' + charts + '\nlabels=' + labels + '\noverlaps=' + overlaps +
			  '\nbelow=' + below + '\n' + lines.join('\n') + '\nend=1\n';
	document.body.appendChild(pre);
})();
