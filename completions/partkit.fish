# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_partkit_global_optspecs
    string join \n pretty compact q/quiet max-document-size= config= no-config h/help V/version
end

function __fish_partkit_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_partkit_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_partkit_using_subcommand
    set -l cmd (__fish_partkit_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c partkit -n "__fish_partkit_needs_command" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_needs_command" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_needs_command" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_needs_command" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_needs_command" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_needs_command" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_needs_command" -s h -l help -d 'Print help'
complete -c partkit -n "__fish_partkit_needs_command" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "encode" -d 'Turn files, stdin, data: URLs and http(s) URLs into content parts'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "split" -d 'Split a tool reply into text plus images (NeMo Gym\'s tool_output_images)'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "validate" -d 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "inspect" -d 'List every media item in a recorded document of any shape'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "resize" -d 'Bring images under a byte cap: image files, or every image in JSON documents'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "convert" -d 'Convert transcripts between provider shapes'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "view" -d 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "config" -d 'Print the settings in effect from the config file, and where each came from'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "generate" -d 'Write completions and man pages (for maintainers)'
complete -c partkit -n "__fish_partkit_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -s t -l text -d 'Add a text part at this place among the sources (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l type -d 'The part type, overriding the one the media type implies' -r -f -a "image\t''
file\t''
audio\t''"
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l mime-type -d 'The media type, overriding sniffing and the extension' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l name -d 'The part\'s name (one source only; defaults to the file\'s base name)' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l max-part-bytes -d 'Refuse a part larger than this many decoded bytes (e.g. 5MB, 5MiB)' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l timeout -d 'Give up on a download after this many seconds' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l to -d 'Print the parts as blocks of this shape' -r -f -a "canonical\t'partkit\'s canonical parts'
openai-chat\t'OpenAI Chat Completions content parts'
openai-responses\t'OpenAI Responses input parts'
anthropic\t'Anthropic Messages content blocks'
gemini\t'Gemini parts (camelCase)'
bedrock\t'Bedrock Converse content blocks'
mcp\t'MCP content blocks'
tool-output-image\t'NeMo Gym ToolOutputImage entries (images only)'"
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l on-error -d 'With --jsonl: what a source that fails becomes (without it, any failure fails the run and nothing is printed)' -r -f -a "skip\t'Leave the failed document out (error on stderr with file and line; exit 1)'
null\t'Write `null` in its place, so output line N is input line N (error on stderr; exit 0)'
stop\t'Stop at the first failed document (exit 1; nothing after it is printed)'"
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l strict -d 'Treat a disagreement between content and declared type as an error'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l fetch -d 'Download http(s) URLs and inline their bytes instead of keeping URL parts'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l jsonl -d 'Print one part per line instead of a JSON array'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand encode" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l to -d 'Print the reply as one tool result of this shape' -r -f -a "canonical\t'A canonical tool_result block'
openai-chat\t'A tool message, plus a user message with the images'
openai-responses\t'A function_call_output item'
anthropic\t'A tool_result block'
gemini\t'A functionResponse part'
bedrock\t'A toolResult content block'
mcp\t'A CallToolResult'"
complete -c partkit -n "__fish_partkit_using_subcommand split" -l call-id -d 'The id of the tool call this reply answers (with --to)' -r
complete -c partkit -n "__fish_partkit_using_subcommand split" -l name -d 'The tool\'s name (with --to; gemini needs it)' -r
complete -c partkit -n "__fish_partkit_using_subcommand split" -l images-dir -d 'Also write each image into DIR as NNN.<ext> or NNN-<label>.<ext>' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand split" -l at -d 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand split" -l at-missing -d 'What a document without a value at an --at pointer gets' -r -f -a "error\t'The document fails, naming the pointer'
skip\t'The pointer is passed over; a document without any is passed through unchanged'"
complete -c partkit -n "__fish_partkit_using_subcommand split" -l on-error -d 'What a document that fails becomes in the output' -r -f -a "skip\t'Leave the failed document out (error on stderr with file and line; exit 1)'
null\t'Write `null` in its place, so output line N is input line N (error on stderr; exit 0)'
stop\t'Stop at the first failed document (exit 1; nothing after it is printed)'"
complete -c partkit -n "__fish_partkit_using_subcommand split" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand split" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand split" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand split" -l rest -d 'Print only the rest of the reply (the JSON the model gets as tool output)'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l force -d 'Overwrite existing files in --images-dir'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l jsonl -d 'Read the input as JSON Lines even if it looks like one document'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand split" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand split" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand split" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand split" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l kind -d 'Check every document as this kind instead of recognizing it' -r -f -a "reply\t'A tool reply with tool_output_images'
parts\t'One canonical part or a list of them'
transcript\t'A transcript, request, response or tool result of a provider shape (or canonical)'
rollout\t'A NeMo Gym rollout line (responses_create_params + response + reward and ids)'"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l from -d 'Read documents as transcripts of this shape (implies --kind transcript)' -r -f -a "auto\t'Detect the shape (and say so when it had to guess)'
canonical\t''
openai-chat\t''
openai-responses\t''
anthropic\t''
gemini\t''
bedrock\t''
mcp\t''
nemo-gym\t''"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l target -d 'Pre-flight transcripts for conversion to this shape: report what it would refuse or drop' -r -f -a "canonical\t'partkit\'s canonical transcript'
openai-chat\t'OpenAI Chat Completions'
openai-responses\t'OpenAI Responses'
anthropic\t'Anthropic Messages'
gemini\t'Gemini generateContent (REST, camelCase)'
bedrock\t'Bedrock Converse'
mcp\t'MCP CallToolResult (single tool results)'
nemo-gym\t'NeMo Gym tool reply (single tool results)'"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l format -d 'How to print findings (the variable lets a CI job switch a pre-commit hook to github)' -r -f -a "text\t'One line per finding: path:line: severity[rule] /pointer: message'
json\t'JSON Lines, one object per finding'
github\t'GitHub Actions workflow commands (::error file=PATH,line=N,title=RULE::MESSAGE): annotations in CI'
sarif\t'One SARIF 2.1.0 log of every finding, for code scanning tools'"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l ignore -d 'Do not report this rule (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l max-bytes -d 'Refuse a media part over this many decoded bytes (e.g. 5MB)' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l max-dim -d 'Refuse an image whose longest side is over this many pixels' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l max-images -d 'Refuse a document with more than this many images' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l profile -d 'Apply a provider\'s published limits' -r -f -a "default\t'NeMo Gym / PraisonAI: png, jpeg, gif, webp; 5,000,000 bytes per image'
openai\t'20 MB per image; 500 images and 50 MB of images per request'
anthropic\t'5,242,880 base64 characters per image; 8000 px (2000 px past 20 images); 100 images'
gemini\t'png, jpeg, webp, heic, heif; 100 MB inline per request'
bedrock\t'3,932,160 bytes per image; 8000 px; 20 images'"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l at -d 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l at-missing -d 'What a document without a value at an --at pointer gets' -r -f -a "error\t'The document fails, naming the pointer'
skip\t'The pointer is passed over; a document without any is passed through unchanged'"
complete -c partkit -n "__fish_partkit_using_subcommand validate" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l list-rules -d 'Print the rules (id, severity, fixable, what it checks) and exit'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l show-config -d 'Print the settings in effect (command line, config file, defaults) and where each came from, and exit'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l deny-warnings -d 'Fail on warnings too'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l no-deny-warnings -d 'Do not fail on warnings (overrides the config file\'s deny-warnings)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l exit-zero -d 'Report the findings and exit 0 all the same (an input that cannot be read still exits 2)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l deep -d 'Decode every image fully (catches truncated images)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l no-deep -d 'Check image headers only (overrides the config file\'s deep)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l fix -d 'Repair, in place, what has exactly one right answer: a declared type that disagrees with the bytes, media-type aliases, non-canonical base64'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l jsonl -d 'Read inputs as JSON Lines even if they look like one document'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand validate" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l format -d 'How to print the items' -r -f -a "text\t'A table: one row per media item (pointer, kind, types, size, dimensions, name, problems)'
json\t'JSON Lines, one object per media item'"
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l extract -d 'Also write every inline item into DIR as NNN.<ext> or NNN-<name>.<ext>' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l at -d 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l at-missing -d 'What a document without a value at an --at pointer gets' -r -f -a "error\t'The document fails, naming the pointer'
skip\t'The pointer is passed over; a document without any is passed through unchanged'"
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l on-error -d 'What a document that fails becomes in the output' -r -f -a "skip\t'Leave the failed document out (error on stderr with file and line; exit 1)'
null\t'Write `null` in its place, so output line N is input line N (error on stderr; exit 0)'
stop\t'Stop at the first failed document (exit 1; nothing after it is printed)'"
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l tokens -d 'Also estimate each image\'s input tokens: OpenAI (high/low detail), Anthropic, Gemini'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l force -d 'Overwrite existing files in --extract'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l jsonl -d 'Read the input as JSON Lines even if it looks like one document'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l headers -d 'With a recording: also list each body\'s headers (secret values show as REDACTED)'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l events -d 'List the events of each streamed response (or of FILE read as one stream body)'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand inspect" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-bytes -d 'Most decoded bytes per image, e.g. 4MB, 5MiB [default: 5MB, or the profile\'s cap]' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-encoded-bytes -d 'Most base64 characters per image (the unit Anthropic counts)' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-dim -d 'Most pixels on an image\'s longest side' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-pixels -d 'Most pixels (width x height) per image' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l profile -d 'Take the caps and accepted image types from a provider\'s profile (explicit options win)' -r -f -a "default\t'NeMo Gym / PraisonAI: png, jpeg, gif, webp; 5,000,000 bytes per image'
openai\t'20 MB per image; 500 images and 50 MB of images per request'
anthropic\t'5,242,880 base64 characters per image; 8000 px (2000 px past 20 images); 100 images'
gemini\t'png, jpeg, webp, heic, heif; 100 MB inline per request'
bedrock\t'3,932,160 bytes per image; 8000 px; 20 images'"
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l format -d 'The format of re-encoded images (images within every cap are never converted)' -r -f -a "keep\t'The input\'s format (PNG when the profile does not accept it, as for BMP and TIFF)'
png\t'PNG (lossless; searched by scale)'
jpeg\t'JPEG (searched by quality, then by scale)'
webp\t'Lossy WebP (searched by quality, then by scale)'"
complete -c partkit -n "__fish_partkit_using_subcommand resize" -s o -l output -d 'Write the result to FILE (one input)' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l out-dir -d 'Write each result into DIR under its input\'s name (the extension follows the format)' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l report -d 'How each image is reported on stderr' -r -f -a "text\t'One line per image a person reads'
json\t'One JSON object per image (JSON Lines)'"
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-decode-pixels -d 'Refuse to decode an image of more pixels (all frames together): a decompression bomb' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l at -d 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l at-missing -d 'What a document without a value at an --at pointer gets' -r -f -a "error\t'The document fails, naming the pointer'
skip\t'The pointer is passed over; a document without any is passed through unchanged'"
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l on-error -d 'What a document that fails becomes in the output' -r -f -a "skip\t'Leave the failed document out (error on stderr with file and line; exit 1)'
null\t'Write `null` in its place, so output line N is input line N (error on stderr; exit 0)'
stop\t'Stop at the first failed document (exit 1; nothing after it is printed)'"
complete -c partkit -n "__fish_partkit_using_subcommand resize" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l in-place -d 'Replace each input that changed (a temporary file renamed over it)'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l jsonl -d 'Read JSON inputs as JSON Lines even if they look like one document'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand resize" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l from -d 'The input\'s shape' -r -f -a "auto\t'Detect the shape (and say so when it had to guess)'
canonical\t''
openai-chat\t''
openai-responses\t''
anthropic\t''
gemini\t''
bedrock\t''
mcp\t''
nemo-gym\t''"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l to -d 'The output\'s shape' -r -f -a "canonical\t'partkit\'s canonical transcript'
openai-chat\t'OpenAI Chat Completions'
openai-responses\t'OpenAI Responses'
anthropic\t'Anthropic Messages'
gemini\t'Gemini generateContent (REST, camelCase)'
bedrock\t'Bedrock Converse'
mcp\t'MCP CallToolResult (single tool results)'
nemo-gym\t'NeMo Gym tool reply (single tool results)'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l on-unsupported -d 'What to do with a part the target cannot carry [default: error for parts a user attached, text for parts from tools]' -r -f -a "error\t'Exit 1, naming the part and the shape'
text\t'Replace the part by the text `[unsupported <type> part (<mimeType>, <bytes> bytes)]`'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l tool-media -d 'Where media in tool results goes: natively where the target allows it, or lifted into a following user message' -r -f -a "native\t'Inside tool results wherever the target allows it'
lift\t'In a user message after the turn\'s tool results (for gateways and older models)'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l on-invalid-arguments -d 'What to do with tool-call arguments that are not valid JSON' -r -f -a "error\t'Exit 1, naming the call'
keep\t'Keep the string as written'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l call-id -d 'The call id of a single tool result whose shape carries none (mcp, nemo-gym)' -r
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l name -d 'The tool name of a single tool result whose shape carries none' -r
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l kind -d 'Read documents as this kind instead of recognizing it' -r -f -a "transcript\t'A transcript, request, response or tool result (never read as a rollout)'
rollout\t'A NeMo Gym rollout line: its conversation is converted'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l at -d 'Work on the value at this JSON pointer (RFC 6901) of each document, writing the rest of the document back byte for byte (repeatable)' -r
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l at-missing -d 'What a document without a value at an --at pointer gets' -r -f -a "error\t'The document fails, naming the pointer'
skip\t'The pointer is passed over; a document without any is passed through unchanged'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l on-error -d 'What a document that fails becomes in the output' -r -f -a "skip\t'Leave the failed document out (error on stderr with file and line; exit 1)'
null\t'Write `null` in its place, so output line N is input line N (error on stderr; exit 0)'
stop\t'Stop at the first failed document (exit 1; nothing after it is printed)'"
complete -c partkit -n "__fish_partkit_using_subcommand convert" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l strict -d 'Exit 1 instead of dropping anything the target has no place for'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l no-strict -d 'Drop with a warning what the target has no place for (overrides the config file\'s strict)'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l jsonl -d 'Read the input as JSON Lines even if it looks like one document'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l bare -d 'Print only the converted value (of the one --at pointer, or a rollout\'s conversation), not the document around it'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand convert" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand view" -s o -l output -d 'Write the page to FILE (written whole, then renamed into place) [default: stdout]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand view" -l lines -d 'Only the documents starting on these lines: N, N-M, N- or -M' -r
complete -c partkit -n "__fish_partkit_using_subcommand view" -l profile -d 'Check against a provider\'s published limits, as validate --profile' -r -f -a "default\t'NeMo Gym / PraisonAI: png, jpeg, gif, webp; 5,000,000 bytes per image'
openai\t'20 MB per image; 500 images and 50 MB of images per request'
anthropic\t'5,242,880 base64 characters per image; 8000 px (2000 px past 20 images); 100 images'
gemini\t'png, jpeg, webp, heic, heif; 100 MB inline per request'
bedrock\t'3,932,160 bytes per image; 8000 px; 20 images'"
complete -c partkit -n "__fish_partkit_using_subcommand view" -l target -d 'Report what converting to this shape would refuse or drop, as validate --target' -r -f -a "canonical\t'partkit\'s canonical transcript'
openai-chat\t'OpenAI Chat Completions'
openai-responses\t'OpenAI Responses'
anthropic\t'Anthropic Messages'
gemini\t'Gemini generateContent (REST, camelCase)'
bedrock\t'Bedrock Converse'
mcp\t'MCP CallToolResult (single tool results)'
nemo-gym\t'NeMo Gym tool reply (single tool results)'"
complete -c partkit -n "__fish_partkit_using_subcommand view" -s j -l threads -d 'Worker threads [default: RAYON_NUM_THREADS, else one per core]' -r
complete -c partkit -n "__fish_partkit_using_subcommand view" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand view" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand view" -l full-images -d 'Also embed each image\'s original bytes, shown on a click (the page grows by them)'
complete -c partkit -n "__fish_partkit_using_subcommand view" -l jsonl -d 'Read the input as JSON Lines even if it looks like one document'
complete -c partkit -n "__fish_partkit_using_subcommand view" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand view" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand view" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand view" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand view" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand config" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand config" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand config" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand config" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand config" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand config" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand config" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c partkit -n "__fish_partkit_using_subcommand config" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l dir -d 'The repository root to write `completions/` and `man/` into' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l max-document-size -d 'The most one document may hold: a JSON file, a JSON Lines line, an image [default: 512MiB]' -r
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l config -d 'Read settings from this file instead of the nearest partkit.toml, .partkit.toml or pyproject.toml [tool.partkit]' -r -F
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l pretty -d 'Pretty-print JSON output (the default when stdout is a terminal)'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l compact -d 'Print JSON compactly, one document per line (the default otherwise)'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -s q -l quiet -d 'Silence warnings'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -l no-config -d 'Ignore config files'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -s h -l help -d 'Print help'
complete -c partkit -n "__fish_partkit_using_subcommand generate" -s V -l version -d 'Print version'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "encode" -d 'Turn files, stdin, data: URLs and http(s) URLs into content parts'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "split" -d 'Split a tool reply into text plus images (NeMo Gym\'s tool_output_images)'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "validate" -d 'Check tool replies, canonical parts, transcripts and rollouts (a pre-commit check)'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "inspect" -d 'List every media item in a recorded document of any shape'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "resize" -d 'Bring images under a byte cap: image files, or every image in JSON documents'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "convert" -d 'Convert transcripts between provider shapes'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "view" -d 'Draw a recorded conversation, tool reply or JSON Lines file as one offline HTML page'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "config" -d 'Print the settings in effect from the config file, and where each came from'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "generate" -d 'Write completions and man pages (for maintainers)'
complete -c partkit -n "__fish_partkit_using_subcommand help; and not __fish_seen_subcommand_from encode split validate inspect resize convert view config generate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
