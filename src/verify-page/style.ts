/** The verify page's whole style sheet. Its SHA-256 is the CSP style-src source, so any byte change here changes the hash. */
export const STYLE = `:root{color-scheme:light dark;--bg:#f6f6f3;--surface:#fff;--text:#1a1a1a;--muted:#4d4d4d;--border:#c4c4bf;--accent:#0b57d0;--accent-text:#fff;--focus:#0b57d0;--good:#146c2e;--good-bg:#e6f4ea;--warn:#7a4a00;--warn-bg:#fdf0d5;--bad:#b3261e;--bad-bg:#fce8e6;--info:#0b57d0;--info-bg:#e8f0fe;--neutral:#404040;--neutral-bg:#ececea;--code-bg:#efefec}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--surface:#1d1d1d;--text:#ededed;--muted:#b8b8b8;--border:#4a4a4a;--accent:#8ab4f8;--accent-text:#0d1b33;--focus:#8ab4f8;--good:#7ed99a;--good-bg:#10301a;--warn:#ffc266;--warn-bg:#3a2a0a;--bad:#ff9b91;--bad-bg:#3f1613;--info:#8ab4f8;--info-bg:#14284d;--neutral:#cfcfcf;--neutral-bg:#2a2a2a;--code-bg:#2a2a2a}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card-body,.panel,.chosen{overflow-wrap:anywhere}
h1{font-size:1.65rem;line-height:1.25;margin:0 0 .5rem}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.lede{color:var(--muted);margin:0 0 1.25rem}
.muted{color:var(--muted)}
.small{font-size:.875rem}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.drop{display:block;border:2px dashed var(--border);border-radius:12px;background:var(--surface);padding:1.75rem 1rem;text-align:center;cursor:pointer;transition:border-color .15s,background-color .15s}
.drop:hover,.drop.over{border-color:var(--accent);background:var(--info-bg)}
#file:focus+.drop{outline:3px solid var(--focus);outline-offset:2px;border-color:var(--accent)}
.drop-title{display:block;font-size:1.15rem;font-weight:600}
.pick{display:inline-block;margin-top:.75rem;padding:.55rem 1.1rem;border-radius:8px;background:var(--accent);color:var(--accent-text);font-weight:600}
.hint{display:block;color:var(--muted);font-size:.9rem;margin:.6rem 0 0}
.chosen{display:flex;align-items:center;gap:.75rem;margin:.75rem 0 0;overflow-wrap:anywhere}
.chosen img{flex:none;width:56px;height:56px;object-fit:cover;border-radius:6px;border:1px solid var(--border);background:var(--surface)}
.sidecar{margin-top:1rem}
.sidecar summary{cursor:pointer;color:var(--accent);font-weight:500}
.sidecar-body{padding:.5rem 0 0}
.sidecar label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=file]{font:inherit;max-width:100%}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
button{font:inherit;font-weight:600;min-height:44px;padding:.55rem 1.25rem;border-radius:8px;border:2px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer}
button:disabled{opacity:.55;cursor:not-allowed}
.result{margin-top:1.5rem}
.card{display:flex;gap:.9rem;align-items:flex-start;padding:1rem 1.1rem;border:1px solid var(--border);border-left:6px solid var(--tone);border-radius:12px;background:var(--tone-bg)}
.tone-good{--tone:var(--good);--tone-bg:var(--good-bg)}
.tone-warn{--tone:var(--warn);--tone-bg:var(--warn-bg)}
.tone-bad,.tone-error{--tone:var(--bad);--tone-bg:var(--bad-bg)}
.tone-info{--tone:var(--info);--tone-bg:var(--info-bg)}
.tone-neutral{--tone:var(--neutral);--tone-bg:var(--neutral-bg)}
.badge{flex:none;display:grid;place-items:center;width:2.25rem;height:2.25rem;border-radius:50%;background:var(--tone);color:var(--surface);font-weight:700;font-size:1.2rem;line-height:1}
.card-body{min-width:0;flex:1}
.card-title{margin:0;font-size:1.35rem;line-height:1.3;color:var(--tone)}
.card-text{margin:.35rem 0 0}
.card-facts{margin:.5rem 0 0;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.spinner{flex:none;width:1.5rem;height:1.5rem;border-radius:50%;border:3px solid var(--border);border-top-color:var(--accent);animation:spin .8s linear infinite;margin-top:.3rem}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}.drop{transition:none}}
.sections{display:grid;gap:1rem;margin-top:1rem}
.sections>p{margin:0}
.two{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))}
.panel{background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:1rem 1.1rem;min-width:0}
.panel h3{margin:0 0 .5rem;font-size:1.05rem}
.panel p{margin:0}
.list{margin:0;padding-left:1.2rem}
.list li+li{margin-top:.35rem}
.kv{display:grid;grid-template-columns:minmax(7rem,max-content) minmax(0,1fr);gap:.35rem 1rem;margin:0}
.kv dt{color:var(--muted)}
.kv dd{margin:0;overflow-wrap:anywhere}
.match+.match{margin-top:.75rem;padding-top:.75rem;border-top:1px solid var(--border)}
.checks{width:100%;border-collapse:collapse}
.checks th,.checks td{text-align:left;padding:.45rem .25rem;border-top:1px solid var(--border);vertical-align:top}
.checks thead th{border-top:0;color:var(--muted);font-size:.875rem;font-weight:600}
.checks tbody th{font-weight:400}
.state{display:inline-flex;gap:.4rem;align-items:baseline;font-weight:600}
.mark{display:inline-block;width:1.1em;text-align:center}
.s-yes{color:var(--good)}.s-no{color:var(--bad)}.s-unk{color:var(--warn)}.s-na,.s-off{color:var(--muted);font-weight:500}
.note{display:block;color:var(--muted);font-weight:400;font-size:.875rem}
.warnings .list li::marker{color:var(--warn)}
code,pre{font:.875rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code-bg);border-radius:4px}
code{padding:.05rem .3rem;overflow-wrap:anywhere}
pre{padding:.75rem;margin:.5rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.tech summary{cursor:pointer;font-weight:600}
.tech[open] summary{margin-bottom:.75rem}
.tech h3{margin-top:1rem}
footer{margin-top:2.5rem;color:var(--muted);font-size:.9rem}
@media (max-width:26rem){h1{font-size:1.4rem}.kv{grid-template-columns:minmax(0,1fr);gap:0}.kv dd{margin-bottom:.5rem}.card{padding:.9rem;gap:.7rem}.panel{padding:.9rem}}`;
