
use builtin;
use str;

set edit:completion:arg-completer[partkit] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'partkit'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'partkit'= {
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand encode 'Turn files, stdin, data: URLs and http(s) URLs into content parts'
            cand split 'Split a tool reply into text plus images (NeMo Gym''s tool_output_images)'
            cand validate 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)'
            cand inspect 'List every media item in a recorded document of any shape'
            cand resize 'Bring images under a byte cap: image files, or every image in JSON documents'
            cand convert 'Convert transcripts between provider shapes'
            cand view 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page'
            cand config 'Print the settings in effect from the config file, and where each came from'
            cand generate 'Write completions and man pages (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'partkit;encode'= {
            cand -t 'Add a text part at this place among the sources (repeatable)'
            cand --text 'Add a text part at this place among the sources (repeatable)'
            cand --type 'The part type, overriding the one the media type implies'
            cand --mime-type 'The media type, overriding sniffing and the extension'
            cand --name 'The part''s name (one source only; defaults to the file''s base name)'
            cand --max-part-bytes 'Refuse a part larger than this many decoded bytes (e.g. 5MB, 5MiB)'
            cand --timeout 'Give up on a download after this many seconds'
            cand --to 'Print the parts as blocks of this shape'
            cand --on-error 'With --jsonl: what a source that fails becomes (without it, any failure fails the run and nothing is printed)'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --strict 'Treat a disagreement between content and declared type as an error'
            cand --fetch 'Download http(s) URLs and inline their bytes instead of keeping URL parts'
            cand --jsonl 'Print one part per line instead of a JSON array'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;split'= {
            cand --to 'Print the reply as one tool result of this shape'
            cand --call-id 'The id of the tool call this reply answers (with --to)'
            cand --name 'The tool''s name (with --to; gemini needs it)'
            cand --images-dir 'Also write each image into DIR as NNN.<ext> or NNN-<label>.<ext>'
            cand --at 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)'
            cand --at-missing 'What a document without a value at an --at pointer gets'
            cand --on-error 'What a document that fails becomes in the output'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --rest 'Print only the rest of the reply (the JSON the model gets as tool output)'
            cand --force 'Overwrite existing files in --images-dir'
            cand --jsonl 'Read the input as JSON Lines even if it looks like one document'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;validate'= {
            cand --kind 'Check every document as this kind instead of recognizing it'
            cand --from 'Read documents as transcripts of this shape (implies --kind transcript)'
            cand --target 'Pre-flight transcripts for conversion to this shape: report what it would refuse or drop'
            cand --format 'How to print findings (the variable lets a CI job switch a pre-commit hook to github)'
            cand --ignore 'Do not report this rule (repeatable)'
            cand --max-bytes 'Refuse a media part over this many decoded bytes (e.g. 5MB)'
            cand --max-dim 'Refuse an image whose longest side is over this many pixels'
            cand --max-images 'Refuse a document with more than this many images'
            cand --profile 'Apply a provider''s published limits'
            cand --at 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)'
            cand --at-missing 'What a document without a value at an --at pointer gets'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --list-rules 'Print the rules (id, severity, fixable, what it checks) and exit'
            cand --show-config 'Print the settings in effect (command line, config file, defaults) and where each came from, and exit'
            cand --deny-warnings 'Fail on warnings too'
            cand --no-deny-warnings 'Do not fail on warnings (overrides the config file''s deny-warnings)'
            cand --exit-zero 'Report the findings and exit 0 all the same (an input that cannot be read still exits 2)'
            cand --deep 'Decode every image fully (catches truncated images)'
            cand --no-deep 'Check image headers only (overrides the config file''s deep)'
            cand --fix 'Repair, in place, what has exactly one right answer: a declared type that disagrees with the bytes, media-type aliases, non-canonical base64'
            cand --jsonl 'Read inputs as JSON Lines even if they look like one document'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;inspect'= {
            cand --format 'How to print the items'
            cand --extract 'Also write every inline item into DIR as NNN.<ext> or NNN-<name>.<ext>'
            cand --at 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)'
            cand --at-missing 'What a document without a value at an --at pointer gets'
            cand --on-error 'What a document that fails becomes in the output'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --tokens 'Also estimate each image''s input tokens: OpenAI (high/low detail), Anthropic, Gemini'
            cand --force 'Overwrite existing files in --extract'
            cand --jsonl 'Read the input as JSON Lines even if it looks like one document'
            cand --headers 'With a recording: also list each body''s headers (secret values show as REDACTED)'
            cand --events 'List the events of each streamed response (or of FILE read as one stream body)'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;resize'= {
            cand --max-bytes 'Most decoded bytes per image, e.g. 4MB, 5MiB [default: 5MB, or the profile''s cap]'
            cand --max-encoded-bytes 'Most base64 characters per image (the unit Anthropic counts)'
            cand --max-dim 'Most pixels on an image''s longest side'
            cand --max-pixels 'Most pixels (width x height) per image'
            cand --profile 'Take the caps and accepted image types from a provider''s profile (explicit options win)'
            cand --format 'The format of re-encoded images (images within every cap are never converted)'
            cand -o 'Write the result to FILE (one input)'
            cand --output 'Write the result to FILE (one input)'
            cand --out-dir 'Write each result into DIR under its input''s name (the extension follows the format)'
            cand --report 'How each image is reported on stderr'
            cand --max-decode-pixels 'Refuse to decode an image of more pixels (all frames together): a decompression bomb'
            cand --at 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)'
            cand --at-missing 'What a document without a value at an --at pointer gets'
            cand --on-error 'What a document that fails becomes in the output'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --in-place 'Replace each input that changed (a temporary file renamed over it)'
            cand --jsonl 'Read JSON inputs as JSON Lines even if they look like one document'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;convert'= {
            cand --from 'The input''s shape'
            cand --to 'The output''s shape'
            cand --on-unsupported 'What to do with a part the target cannot carry [default: error for parts a user attached, text for parts from tools]'
            cand --tool-media 'Where media in tool results goes: natively where the target allows it, or lifted into a following user message'
            cand --on-invalid-arguments 'What to do with tool-call arguments that are not valid JSON'
            cand --call-id 'The call id of a single tool result whose shape carries none (mcp, nemo-gym)'
            cand --name 'The tool name of a single tool result whose shape carries none'
            cand --kind 'Read documents as this kind instead of recognizing it'
            cand --at 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)'
            cand --at-missing 'What a document without a value at an --at pointer gets'
            cand --on-error 'What a document that fails becomes in the output'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --strict 'Exit 1 instead of dropping anything the target has no place for'
            cand --no-strict 'Drop with a warning what the target has no place for (overrides the config file''s strict)'
            cand --jsonl 'Read the input as JSON Lines even if it looks like one document'
            cand --bare 'Print only the converted value (of the one --at pointer, or a rollout''s conversation), not the document around it'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;view'= {
            cand -o 'Write the page to FILE (written whole, then renamed into place) [default: stdout]'
            cand --output 'Write the page to FILE (written whole, then renamed into place) [default: stdout]'
            cand --lines 'Only the documents starting on these lines: N, N-M, N- or -M'
            cand --profile 'Check against a provider''s published limits, as validate --profile'
            cand --target 'Report what converting to this shape would refuse or drop, as validate --target'
            cand -j 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --threads 'Worker threads [default: RAYON_NUM_THREADS, else one per core]'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --full-images 'Also embed each image''s original bytes, shown on a click (the page grows by them)'
            cand --jsonl 'Read the input as JSON Lines even if it looks like one document'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;config'= {
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;generate'= {
            cand --dir 'The repository root to write `completions/` and `man/` into'
            cand --max-document-size 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]'
            cand --config 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]'
            cand --pretty 'Pretty-print JSON output (the default when stdout is a terminal)'
            cand --compact 'Print JSON compactly, one document per line (the default otherwise)'
            cand -q 'Silence warnings'
            cand --quiet 'Silence warnings'
            cand --no-config 'Ignore config files'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'partkit;help'= {
            cand encode 'Turn files, stdin, data: URLs and http(s) URLs into content parts'
            cand split 'Split a tool reply into text plus images (NeMo Gym''s tool_output_images)'
            cand validate 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)'
            cand inspect 'List every media item in a recorded document of any shape'
            cand resize 'Bring images under a byte cap: image files, or every image in JSON documents'
            cand convert 'Convert transcripts between provider shapes'
            cand view 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page'
            cand config 'Print the settings in effect from the config file, and where each came from'
            cand generate 'Write completions and man pages (for maintainers)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'partkit;help;encode'= {
        }
        &'partkit;help;split'= {
        }
        &'partkit;help;validate'= {
        }
        &'partkit;help;inspect'= {
        }
        &'partkit;help;resize'= {
        }
        &'partkit;help;convert'= {
        }
        &'partkit;help;view'= {
        }
        &'partkit;help;config'= {
        }
        &'partkit;help;generate'= {
        }
        &'partkit;help;help'= {
        }
    ]
    $completions[$command]
}
