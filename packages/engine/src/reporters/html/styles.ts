/**
 * The report's one stylesheet, inline (the report's CSP allows inline styles and data: images, nothing else).
 * Readable at 375 px (tables scroll inside their box, long strings wrap) and printed on A4.
 */
export const REPORT_STYLE = `
:root{--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--muted:#57606a;--line:#d0d7de;--bg:#f6f7f9;--tone:#57606a}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;margin:0;color:#1b1f24;background:var(--bg);-webkit-text-size-adjust:100%}
main{max-width:1040px;margin:0 auto;padding:24px 16px}
.t-passed{--tone:var(--ok)}.t-failed{--tone:var(--bad)}.t-error{--tone:var(--warn)}.t-skipped{--tone:#6e7781}
header.report{background:#fff;border:1px solid var(--line);border-top:6px solid var(--tone);border-radius:8px;padding:16px 20px}
.eyebrow{color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.04em;margin:0}
h1{font-size:24px;line-height:1.25;margin:4px 0 6px;overflow-wrap:anywhere}
.verdict{font-size:18px;font-weight:600;margin:6px 0 0;color:var(--tone);overflow-wrap:anywhere}
dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 14px;margin:12px 0 0;font-size:14px}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:16px 0}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px;break-inside:avoid}
.card b{display:block;font-size:22px;line-height:1.25;font-variant-numeric:tabular-nums}
.card span{color:var(--muted);font-size:13px}
.card.bad{border-color:#f5c2c7}.card.bad b{color:var(--bad)}.card.ok b{color:var(--ok)}.card.warn b{color:var(--warn)}
section{margin:28px 0}h2{font-size:19px;margin:0 0 10px}h3{font-size:16px;margin:16px 0 6px;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:8px;margin:8px 0}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:8px 10px;text-align:left;vertical-align:top;border-bottom:1px solid #eaeef2;overflow-wrap:break-word}
th{background:#f3f5f7;font-size:13px;color:var(--muted);font-weight:600}
.u{overflow-wrap:anywhere}
tr:last-child td{border-bottom:0}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{display:inline-block;padding:1px 9px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;white-space:nowrap;background:#6e7781}
.b-passed,.b-met{background:var(--ok)}.b-failed,.b-missed{background:var(--bad)}.b-error{background:var(--warn)}
.r-High,.i-critical{background:#cf222e}.r-Medium,.i-serious{background:#bc4c00}.r-Low,.i-moderate{background:#9a6700}.r-Informational,.i-minor{background:#57606a}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;max-height:320px;font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.box{background:#fff;border:1px solid var(--line);border-left:4px solid var(--tone);border-radius:8px;padding:12px 14px;margin:10px 0}
.box-head{display:flex;gap:8px;align-items:baseline;flex-wrap:wrap}
.box-head .name{font-weight:600;flex:1 1 220px;overflow-wrap:anywhere}
.muted{color:var(--muted)}.small{font-size:13px}
.kv{margin:6px 0}.kv b{font-weight:600}
.steps{margin:6px 0 0;padding-left:20px;font-size:14px}.steps .failed{color:var(--bad);font-weight:600}
.shot-frame{width:fit-content;max-width:100%;max-height:520px;overflow:auto;border:1px solid var(--line);border-radius:4px;margin-top:8px;background:#fff}
.shots .shot-frame{max-height:360px}
.shot{display:block;max-width:100%;height:auto}
.shots{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:12px}
figure{margin:0}figcaption{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.trace-link{display:inline-block;margin-top:8px;font-size:13px;color:#0969da;font-weight:600}
.gauges{display:flex;flex-wrap:wrap;gap:12px 20px;margin:8px 0}
.gauge{text-align:center;width:104px;font-size:13px}.gauge svg{width:88px;height:88px;display:block;margin:0 auto}
.chart{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px;margin:10px 0;break-inside:avoid}
.chart .plot{overflow-x:auto}.chart svg{width:100%;min-width:600px;height:auto;display:block}
.legend{display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px;margin:4px 0 0}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
ul.targets{margin:4px 0;padding-left:20px;font-size:12.5px}
details{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}
details details{margin:8px 0}summary{cursor:pointer;font-weight:600}
a{color:#0969da}
.test-section{margin:36px 0 0;padding-top:4px;border-top:2px solid var(--line)}
.test-section h2.test-title{font-size:20px;margin:0}.test-section .verdict{font-size:16px}
.test-section section{margin:16px 0}.test-section section h2{font-size:16px}
footer{color:var(--muted);font-size:12px;margin:32px 0 8px}
@media (max-width:600px){main{padding:14px 10px}header.report{padding:14px}h1{font-size:20px}.verdict{font-size:16px}
.card b{font-size:19px}.cards{grid-template-columns:repeat(2,minmax(0,1fr))}th,td{padding:6px 8px}}
@media print{body{background:#fff;font-size:12.5px}.shot-frame,.shots .shot-frame{max-height:none;overflow:visible}.shot{max-height:140mm;width:auto;object-fit:contain}.chart svg{min-width:0}main{max-width:none;padding:0}.table-wrap{overflow:visible}pre{max-height:none}
.box-head,.kv,pre,.shot-frame,.card,tr,.gauge,.gauges,.chart,figure,header.report{break-inside:avoid}.box-head{break-after:avoid}h2,h3{break-after:avoid}}
@page{size:A4;margin:14mm}
`;
