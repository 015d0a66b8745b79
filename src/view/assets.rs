//! The page's one style sheet and one script, and the Content-Security-Policy
//! that allows exactly them (by hash), `data:` images and `data:` audio, and
//! nothing else: no network, no other script, no frames, no forms.

use base64::Engine;
use sha2::{Digest, Sha256};

pub const STYLE: &str = r#"
:root{color-scheme:light dark;--bg:#fff;--fg:#1d1f23;--mute:#667;--line:#d8dbe0;--user:#eef4ff;--assistant:#f4f7ee;--tool:#fff6e8;--system:#f3f0f7;--bad:#b3261e;--warn:#8a5a00;--good:#1b6e2d}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e6e6;--mute:#9aa;--line:#333842;--user:#1b2536;--assistant:#1d2619;--tool:#2c2416;--system:#241f2c;--bad:#ff8a80;--warn:#ffcc66;--good:#8fd19e}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,sans-serif}
.page{display:flex;flex-direction:column;max-width:1100px;margin:0 auto;padding:16px}
.top{order:-2}.index{order:-1;margin-bottom:16px}
h1{font-size:18px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:15px;margin:0 0 8px}
h2 a{color:inherit;text-decoration:none}
.summary{color:var(--mute);margin:0 0 8px}
.doc{border:1px solid var(--line);border-radius:8px;padding:12px;margin:0 0 16px}
.turn{border-left:4px solid var(--line);border-radius:4px;padding:6px 10px;margin:8px 0}
.turn.user{background:var(--user)}.turn.assistant{background:var(--assistant)}
.turn.tool{background:var(--tool)}.turn.system{background:var(--system)}
.role{font-weight:600;font-size:12px;text-transform:uppercase;color:var(--mute)}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;font:13px/1.4 ui-monospace,monospace}
.tool-call,.tool-result{border:1px dashed var(--line);border-radius:6px;padding:6px;margin:6px 0}
.call-head{font-size:13px}.name{font-weight:600}
code{overflow-wrap:anywhere}
.mark{font-size:12px;padding:0 6px;border-radius:8px;border:1px solid currentColor;margin-right:6px}
.good{color:var(--good)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.findings{margin:0 0 8px;padding-left:18px}
.findings.inline{margin:4px 0;font-size:13px}
.finding.error .severity{color:var(--bad);font-weight:600}
.finding.warning .severity{color:var(--warn);font-weight:600}
.rule{font-family:ui-monospace,monospace}
figure.image{display:inline-block;margin:6px 8px 6px 0;vertical-align:top;max-width:320px}
img.thumb{max-width:200px;max-height:200px;min-width:48px;min-height:36px;object-fit:contain;image-rendering:pixelated;border:1px solid var(--line);background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/12px 12px}
img.full{max-width:100%;border:1px solid var(--line)}
details summary{cursor:pointer}
figcaption,.facts,.tokens{font-size:12px;color:var(--mute)}
.chip{display:inline-block;border:1px solid var(--line);border-radius:12px;padding:2px 10px;margin:4px 6px 4px 0;font-size:13px}
.chip.bad{color:var(--bad)}
.tag{font-weight:600}
.mismatch{color:var(--bad);font-size:12px}
.cut{color:var(--mute);font-style:italic}
.controls{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:8px 0}
.controls input[type=search]{flex:1;min-width:200px;padding:4px 8px}
table{border-collapse:collapse;width:100%;font-size:13px}
td,th{border-bottom:1px solid var(--line);padding:2px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.s{white-space:nowrap}
.index .rows{max-height:320px;overflow:auto;border:1px solid var(--line);border-radius:6px}
.side{border-top:1px solid var(--line);margin-top:8px;padding-top:6px}
h3{font-size:13px;margin:0 0 4px}
.uri{font-weight:400}
.note{color:var(--mute);font-size:13px;margin:4px 0}
table.headers{font:12px/1.3 ui-monospace,monospace}
table.headers th{width:30%;font-weight:400;color:var(--mute);overflow-wrap:anywhere}
.redacted{color:var(--mute);font-style:italic}
.hidden{display:none}
"#;

/// Filters the index and the sections (documents, or a recording's
/// interactions): a text search over each section's text, and "with
/// findings" / "with images" switches. A row is tied to its section by the
/// section's id (`line-N`, `interaction-N`). Reads the page's own data
/// attributes; writes only class names.
pub const SCRIPT: &str = r#"
(function(){
  var q=document.getElementById('q'),f=document.getElementById('only-findings'),i=document.getElementById('only-images');
  if(!q){return;}
  var docs=Array.prototype.slice.call(document.querySelectorAll('section.doc'));
  var rows={};Array.prototype.forEach.call(document.querySelectorAll('tr[data-line],tr[data-interaction]'),function(r){var n=r.getAttribute('data-line');rows[n===null?'interaction-'+r.getAttribute('data-interaction'):'line-'+n]=r;});
  var texts=null;
  function apply(){
    var needle=q.value.toLowerCase();
    if(needle&&!texts){texts=docs.map(function(d){return d.textContent.toLowerCase();});}
    var shown=0;
    docs.forEach(function(d,k){
      var ok=(!f.checked||d.getAttribute('data-findings')!=='0')&&(!i.checked||d.getAttribute('data-images')!=='0')&&(!needle||texts[k].indexOf(needle)>=0);
      d.classList.toggle('hidden',!ok);
      var r=rows[d.id];if(r){r.classList.toggle('hidden',!ok);}
      if(ok){shown++;}
    });
    document.getElementById('shown').textContent=shown.toLocaleString('en');
  }
  q.addEventListener('input',apply);f.addEventListener('change',apply);i.addEventListener('change',apply);
})();
"#;

/// `sha256-…` of a text, as CSP names an inline script or style.
fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The policy: the page's own style and script by hash, images and audio
/// only as `data:` URLs, nothing else.
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; img-src data:; media-src data:; style-src {}; script-src {}; \
         base-uri 'none'; form-action 'none'",
        hash(STYLE),
        hash(SCRIPT)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_style_and_the_script_by_hash() {
        let policy = content_security_policy();
        assert!(policy
            .starts_with("default-src 'none'; img-src data:; media-src data:; style-src 'sha256-"));
        // A known value: the hash of an empty text.
        assert_eq!(
            hash(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
        assert!(!policy.contains("unsafe"));
    }
}
