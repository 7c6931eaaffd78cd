// Typeset TeX formulas with the book's own MathJax 3 (node build) and report the ones MathJax rejects.
// usage: node tools/check_math.js MATHJAX_DIR < formulas.json   (a JSON list of [tex, display]); prints a JSON list of errors
const MJ = require(process.argv[2]);
let input = "";
process.stdin.on("data", d => input += d).on("end", () => {
  const items = JSON.parse(input);
  MJ.init({loader: {load: ["input/tex-full", "output/chtml", "adaptors/liteDOM"]}}).then(M => {
    const bad = [];
    items.forEach(([tex, display], i) => {
      let mml;
      try { mml = M.tex2mml(tex, {display}); } catch (e) { bad.push([i, String(e.message || e)]); return; }
      const err = /data-mjx-error="([^"]*)"/.exec(mml) || /<mtext mathcolor="red">([^<]*)</.exec(mml);
      if (err) bad.push([i, err[1]]);
    });
    process.stdout.write(JSON.stringify(bad));
  }).catch(e => { console.error(String(e)); process.exit(2); });
});
