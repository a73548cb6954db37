<!-- flamegraph-checks.js: appended to an SVG by tests/flamegraph.sh: checks made from the page in
     headless Chromium, after its script has run; HOT names a frame to hover, search and zoom
     into; the verdict ("ok", or what is wrong) is left in the root's data-check attribute. -->
<script type="text/ecmascript"><![CDATA[
window.addEventListener('load', function () { setTimeout(function () {
  var bad = [], root = document.documentElement, total = +root.getAttribute('data-total');
  var gs = document.getElementsByClassName('f'), W = 1180, roots = 0, hot = null, named = [];
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.getElementsByTagName('rect')[0], w = +g.getAttribute('data-ns');
    var t = g.getElementsByTagName('title')[0].textContent;
    if (+g.getAttribute('data-depth') === 0) roots += w;
    if (Math.abs(r.getBBox().width - w / total * W) > 0.01) bad.push('frame ' + i + ' drawn ' + r.getBBox().width + ' px wide');
    if (t.indexOf(', ' + w + ' ns\nself ') < 0) bad.push('title of frame ' + i);
    if (t.split('\n')[0] === HOT) { hot = hot || g; named.push(g); }
  }
  // the time under frames named HOT: those not below another of them
  var under = 0;
  for (var j = 0; j < named.length; j++) {
    var x = +named[j].getAttribute('data-x'), d = +named[j].getAttribute('data-depth'), top = true;
    for (var k = 0; k < named.length; k++) {
      var x2 = +named[k].getAttribute('data-x'), d2 = +named[k].getAttribute('data-depth');
      if (d2 < d && x2 <= x && x < x2 + +named[k].getAttribute('data-ns')) top = false;
    }
    if (top) under += +named[j].getAttribute('data-ns');
  }
  if (roots !== total) bad.push('the roots add up to ' + roots + ', not ' + total);
  if (!hot) bad.push('no frame ' + HOT);
  else {
    hot.dispatchEvent(new MouseEvent('mouseover'));
    if (document.getElementById('details').textContent.indexOf(HOT + '; ') !== 0) bad.push('hovering shows no details');
    if (search('^' + HOT + '$') !== under) bad.push('search finds not ' + HOT + "'s time");
    hot.dispatchEvent(new MouseEvent('click'));
    if (Math.abs(hot.getElementsByTagName('rect')[0].getBBox().width - W) > 0.01) bad.push('a click does not zoom');
  }
  root.setAttribute('data-check', bad.length ? bad.join('; ') : 'ok');
}, 0); });
]]></script>
