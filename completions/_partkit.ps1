
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'partkit' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'partkit'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'partkit' {
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('encode', 'encode', [CompletionResultType]::ParameterValue, 'Turn files, stdin, data: URLs and http(s) URLs into content parts')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Split a tool reply into text plus images (NeMo Gym''s tool_output_images)')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'List every media item in a recorded document of any shape')
            [CompletionResult]::new('resize', 'resize', [CompletionResultType]::ParameterValue, 'Bring images under a byte cap: image files, or every image in JSON documents')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert transcripts between provider shapes')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the settings in effect from the config file, and where each came from')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write completions and man pages (for maintainers)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'partkit;encode' {
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Add a text part at this place among the sources (repeatable)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Add a text part at this place among the sources (repeatable)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'The part type, overriding the one the media type implies')
            [CompletionResult]::new('--mime-type', '--mime-type', [CompletionResultType]::ParameterName, 'The media type, overriding sniffing and the extension')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The part''s name (one source only; defaults to the file''s base name)')
            [CompletionResult]::new('--max-part-bytes', '--max-part-bytes', [CompletionResultType]::ParameterName, 'Refuse a part larger than this many decoded bytes (e.g. 5MB, 5MiB)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up on a download after this many seconds')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Print the parts as blocks of this shape')
            [CompletionResult]::new('--on-error', '--on-error', [CompletionResultType]::ParameterName, 'With --jsonl: what a source that fails becomes (without it, any failure fails the run and nothing is printed)')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat a disagreement between content and declared type as an error')
            [CompletionResult]::new('--fetch', '--fetch', [CompletionResultType]::ParameterName, 'Download http(s) URLs and inline their bytes instead of keeping URL parts')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Print one part per line instead of a JSON array')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;split' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Print the reply as one tool result of this shape')
            [CompletionResult]::new('--call-id', '--call-id', [CompletionResultType]::ParameterName, 'The id of the tool call this reply answers (with --to)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The tool''s name (with --to; gemini needs it)')
            [CompletionResult]::new('--images-dir', '--images-dir', [CompletionResultType]::ParameterName, 'Also write each image into DIR as NNN.<ext> or NNN-<label>.<ext>')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)')
            [CompletionResult]::new('--at-missing', '--at-missing', [CompletionResultType]::ParameterName, 'What a document without a value at an --at pointer gets')
            [CompletionResult]::new('--on-error', '--on-error', [CompletionResultType]::ParameterName, 'What a document that fails becomes in the output')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--rest', '--rest', [CompletionResultType]::ParameterName, 'Print only the rest of the reply (the JSON the model gets as tool output)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite existing files in --images-dir')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read the input as JSON Lines even if it looks like one document')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;validate' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Check every document as this kind instead of recognizing it')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read documents as transcripts of this shape (implies --kind transcript)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Pre-flight transcripts for conversion to this shape: report what it would refuse or drop')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print findings (the variable lets a CI job switch a pre-commit hook to github)')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not report this rule (repeatable)')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Refuse a media part over this many decoded bytes (e.g. 5MB)')
            [CompletionResult]::new('--max-dim', '--max-dim', [CompletionResultType]::ParameterName, 'Refuse an image whose longest side is over this many pixels')
            [CompletionResult]::new('--max-images', '--max-images', [CompletionResultType]::ParameterName, 'Refuse a document with more than this many images')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Apply a provider''s published limits')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)')
            [CompletionResult]::new('--at-missing', '--at-missing', [CompletionResultType]::ParameterName, 'What a document without a value at an --at pointer gets')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--list-rules', '--list-rules', [CompletionResultType]::ParameterName, 'Print the rules (id, severity, fixable, what it checks) and exit')
            [CompletionResult]::new('--show-config', '--show-config', [CompletionResultType]::ParameterName, 'Print the settings in effect (command line, config file, defaults) and where each came from, and exit')
            [CompletionResult]::new('--deny-warnings', '--deny-warnings', [CompletionResultType]::ParameterName, 'Fail on warnings too')
            [CompletionResult]::new('--no-deny-warnings', '--no-deny-warnings', [CompletionResultType]::ParameterName, 'Do not fail on warnings (overrides the config file''s deny-warnings)')
            [CompletionResult]::new('--exit-zero', '--exit-zero', [CompletionResultType]::ParameterName, 'Report the findings and exit 0 all the same (an input that cannot be read still exits 2)')
            [CompletionResult]::new('--deep', '--deep', [CompletionResultType]::ParameterName, 'Decode every image fully (catches truncated images)')
            [CompletionResult]::new('--no-deep', '--no-deep', [CompletionResultType]::ParameterName, 'Check image headers only (overrides the config file''s deep)')
            [CompletionResult]::new('--fix', '--fix', [CompletionResultType]::ParameterName, 'Repair, in place, what has exactly one right answer: a declared type that disagrees with the bytes, media-type aliases, non-canonical base64')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read inputs as JSON Lines even if they look like one document')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;inspect' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'How to print the items')
            [CompletionResult]::new('--extract', '--extract', [CompletionResultType]::ParameterName, 'Also write every inline item into DIR as NNN.<ext> or NNN-<name>.<ext>')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)')
            [CompletionResult]::new('--at-missing', '--at-missing', [CompletionResultType]::ParameterName, 'What a document without a value at an --at pointer gets')
            [CompletionResult]::new('--on-error', '--on-error', [CompletionResultType]::ParameterName, 'What a document that fails becomes in the output')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--tokens', '--tokens', [CompletionResultType]::ParameterName, 'Also estimate each image''s input tokens: OpenAI (high/low detail), Anthropic, Gemini')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite existing files in --extract')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read the input as JSON Lines even if it looks like one document')
            [CompletionResult]::new('--headers', '--headers', [CompletionResultType]::ParameterName, 'With a recording: also list each body''s headers (secret values show as REDACTED)')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'List the events of each streamed response (or of FILE read as one stream body)')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;resize' {
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Most decoded bytes per image, e.g. 4MB, 5MiB [default: 5MB, or the profile''s cap]')
            [CompletionResult]::new('--max-encoded-bytes', '--max-encoded-bytes', [CompletionResultType]::ParameterName, 'Most base64 characters per image (the unit Anthropic counts)')
            [CompletionResult]::new('--max-dim', '--max-dim', [CompletionResultType]::ParameterName, 'Most pixels on an image''s longest side')
            [CompletionResult]::new('--max-pixels', '--max-pixels', [CompletionResultType]::ParameterName, 'Most pixels (width x height) per image')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Take the caps and accepted image types from a provider''s profile (explicit options win)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'The format of re-encoded images (images within every cap are never converted)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the result to FILE (one input)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the result to FILE (one input)')
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write each result into DIR under its input''s name (the extension follows the format)')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'How each image is reported on stderr')
            [CompletionResult]::new('--max-decode-pixels', '--max-decode-pixels', [CompletionResultType]::ParameterName, 'Refuse to decode an image of more pixels (all frames together): a decompression bomb')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)')
            [CompletionResult]::new('--at-missing', '--at-missing', [CompletionResultType]::ParameterName, 'What a document without a value at an --at pointer gets')
            [CompletionResult]::new('--on-error', '--on-error', [CompletionResultType]::ParameterName, 'What a document that fails becomes in the output')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--in-place', '--in-place', [CompletionResultType]::ParameterName, 'Replace each input that changed (a temporary file renamed over it)')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read JSON inputs as JSON Lines even if they look like one document')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;convert' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The input''s shape')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The output''s shape')
            [CompletionResult]::new('--on-unsupported', '--on-unsupported', [CompletionResultType]::ParameterName, 'What to do with a part the target cannot carry [default: error for parts a user attached, text for parts from tools]')
            [CompletionResult]::new('--tool-media', '--tool-media', [CompletionResultType]::ParameterName, 'Where media in tool results goes: natively where the target allows it, or lifted into a following user message')
            [CompletionResult]::new('--on-invalid-arguments', '--on-invalid-arguments', [CompletionResultType]::ParameterName, 'What to do with tool-call arguments that are not valid JSON')
            [CompletionResult]::new('--call-id', '--call-id', [CompletionResultType]::ParameterName, 'The call id of a single tool result whose shape carries none (mcp, nemo-gym)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The tool name of a single tool result whose shape carries none')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Read documents as this kind instead of recognizing it')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)')
            [CompletionResult]::new('--at-missing', '--at-missing', [CompletionResultType]::ParameterName, 'What a document without a value at an --at pointer gets')
            [CompletionResult]::new('--on-error', '--on-error', [CompletionResultType]::ParameterName, 'What a document that fails becomes in the output')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 instead of dropping anything the target has no place for')
            [CompletionResult]::new('--no-strict', '--no-strict', [CompletionResultType]::ParameterName, 'Drop with a warning what the target has no place for (overrides the config file''s strict)')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read the input as JSON Lines even if it looks like one document')
            [CompletionResult]::new('--bare', '--bare', [CompletionResultType]::ParameterName, 'Print only the converted value (of the one --at pointer, or a rollout''s conversation), not the document around it')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;view' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the page to FILE (written whole, then renamed into place) [default: stdout]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the page to FILE (written whole, then renamed into place) [default: stdout]')
            [CompletionResult]::new('--lines', '--lines', [CompletionResultType]::ParameterName, 'Only the documents starting on these lines: N, N-M, N- or -M')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Check against a provider''s published limits, as validate --profile')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'Report what converting to this shape would refuse or drop, as validate --target')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Worker threads [default: RAYON_NUM_THREADS, else one per core]')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--full-images', '--full-images', [CompletionResultType]::ParameterName, 'Also embed each image''s original bytes, shown on a click (the page grows by them)')
            [CompletionResult]::new('--jsonl', '--jsonl', [CompletionResultType]::ParameterName, 'Read the input as JSON Lines even if it looks like one document')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;config' {
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;generate' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'The repository root to write `completions/` and `man/` into')
            [CompletionResult]::new('--max-document-size', '--max-document-size', [CompletionResultType]::ParameterName, 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Pretty-print JSON output (the default when stdout is a terminal)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'Print JSON compactly, one document per line (the default otherwise)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Silence warnings')
            [CompletionResult]::new('--no-config', '--no-config', [CompletionResultType]::ParameterName, 'Ignore config files')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'partkit;help' {
            [CompletionResult]::new('encode', 'encode', [CompletionResultType]::ParameterValue, 'Turn files, stdin, data: URLs and http(s) URLs into content parts')
            [CompletionResult]::new('split', 'split', [CompletionResultType]::ParameterValue, 'Split a tool reply into text plus images (NeMo Gym''s tool_output_images)')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)')
            [CompletionResult]::new('inspect', 'inspect', [CompletionResultType]::ParameterValue, 'List every media item in a recorded document of any shape')
            [CompletionResult]::new('resize', 'resize', [CompletionResultType]::ParameterValue, 'Bring images under a byte cap: image files, or every image in JSON documents')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert transcripts between provider shapes')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Print the settings in effect from the config file, and where each came from')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write completions and man pages (for maintainers)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'partkit;help;encode' {
            break
        }
        'partkit;help;split' {
            break
        }
        'partkit;help;validate' {
            break
        }
        'partkit;help;inspect' {
            break
        }
        'partkit;help;resize' {
            break
        }
        'partkit;help;convert' {
            break
        }
        'partkit;help;view' {
            break
        }
        'partkit;help;config' {
            break
        }
        'partkit;help;generate' {
            break
        }
        'partkit;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
