#!/usr/bin/env bash
# Upshot upload script (Linux and macOS: bash 3.2+ and curl), made for one account.
#
#   upshot.sh [--private | --public] [--expires WHEN] [--max-views N] [--password-prompt]
#             [--name NAME] [--link file | preview] FILE...
#
# Uploads each file, prints its link (one per line) and copies the links to the clipboard
# (wl-copy, xclip or pbcopy). Files over 100 MiB go in chunks; when such an upload is cut
# short, running the script again on the same file sends only the chunks the server lacks.
# A FILE of - is standard input (`make 2>&1 | upshot.sh - --name build.log`), named
# stdin-<UTC time>.txt unless --name says otherwise; it is not resumed.
# --expires (30m, 12h, 7d, 1y, an ISO date-time, or never) and --max-views (a number, or none)
# limit the links; --password-prompt reads a password for them from the terminal, without
# echo, and hands it to curl in a file, never on a command line.
# The link printed is the file's or its preview page's, as the account's Link style was when
# this script was downloaded; --link file or --link preview chooses for one run.
#
# This file holds your personal API token: keep it to yourself. UPSHOT_URL and UPSHOT_TOKEN
# in the environment take the place of the values written below.

default_url='__UPSHOT_URL__'
default_token='__UPSHOT_TOKEN__'
username='__UPSHOT_USERNAME__'
# Which link to print: the file's own (file) or its preview page's (preview).
default_link='__UPSHOT_LINK__'

url=${UPSHOT_URL:-$default_url}
while [ "${url%/}" != "$url" ]; do url=${url%/}; done
token=${UPSHOT_TOKEN:-$default_token}

# The server's limits: a simple upload takes up to 100 MiB, larger files go in chunks (the
# server says how large in its answer; 50 MiB today).
simple_limit=104857600
chunk_guess=52428800
prog=upshot

usage() {
  cat <<EOF
Usage: upshot.sh [OPTIONS] FILE...

Uploads each FILE to $url as $username, prints its link and copies the
link(s) to the clipboard. Files over 100 MiB are sent in chunks; run the same command
again to resume an interrupted upload.

A FILE of - uploads standard input, for example: some-command | upshot.sh - --name log.txt
It is named stdin-<UTC time>.txt (stdin-20261128T113000Z.txt) unless --name says
otherwise, copied to a private temporary file first, and not resumed: an interrupted
upload of standard input is dropped.

Options:
  --private          make the uploads private (only you can open the links)
  --public           make the uploads public
  --expires WHEN     the links stop working after WHEN: a duration such as 30m, 12h,
                     7d, 2w or 1y, an ISO date-time such as 2026-12-31T23:00:00Z,
                     or never
  --max-views N      the links work for N views, then stop (none: no limit)
  --password-prompt  ask for a password (typed without echo) that visitors must give
                     to open the links; read from the terminal even when standard
                     input is piped
  --name NAME        upload the one FILE (or standard input) under the name NAME
  --link STYLE       print the link to the file itself (file) or to its preview
                     page (preview); without it: $default_link, your Link style
                     when this script was downloaded
  -h, --help         show this help

What you leave out follows your defaults from Settings (privacy, expiry, view limit).
An interrupted upload resumes only with the same options, and keeps the password
typed when it started: --password-prompt does not ask again then.
UPSHOT_URL and UPSHOT_TOKEN in the environment override the server and the token.
EOF
}

say() { printf '%s\n' "$prog: $*" >&2; }

# --- arguments -----------------------------------------------------------------------------

# Empty: not given (the preferences decide).
privacy=""
expires=""
max_views=""
ask_password=0
upload_name=""
link_style=$default_link
files=()
only_files=0
while [ "$#" -gt 0 ]; do
  arg=$1
  shift
  if [ "$only_files" = 1 ]; then
    files+=("$arg")
    continue
  fi
  case $arg in
    --) only_files=1 ;;
    -h | --help) usage; exit 0 ;;
    --private) privacy=false ;;
    --public) privacy=true ;;
    --expires=* | --max-views=* | --name=* | --link=*) set -- "${arg%%=*}" "${arg#*=}" "$@" ;;
    --expires | --max-views | --name | --link)
      if [ "$#" -eq 0 ] || [ -z "$1" ]; then
        say "$arg needs a value (see --help)"
        exit 2
      fi
      case $arg in
        --expires) expires=$1 ;;
        --max-views) max_views=$1 ;;
        --link) link_style=$1 ;;
        *) upload_name=$1 ;;
      esac
      shift
      ;;
    --password-prompt) ask_password=1 ;;
    -?*) say "unknown option: $arg (see --help)"; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done
case $link_style in
  file) link_key=url ;;
  preview) link_key=previewUrl ;;
  *) say "--link takes file or preview, not: $link_style"; exit 2 ;;
esac
if [ "${#files[@]}" -eq 0 ]; then
  usage >&2
  exit 2
fi
stdin_count=0
for f in "${files[@]}"; do
  [ "$f" = - ] && stdin_count=$((stdin_count + 1))
done
if [ "$stdin_count" -gt 1 ]; then
  say "standard input (-) can be uploaded once per run"
  exit 2
fi
# The server keeps only the last part of a path and drops control characters: refused here
# rather than changed without a word.
case $upload_name in
  '') ;;
  *[[:cntrl:]]*) say "--name: control characters are not allowed"; exit 2 ;;
  */* | *\\*) say "--name takes a file name, not a path: $upload_name"; exit 2 ;;
  *[![:space:]]*)
    if [ "${#files[@]}" -gt 1 ]; then
      say "--name names a single upload: give it with one FILE"
      exit 2
    fi
    ;;
  *) say "--name needs a value (see --help)"; exit 2 ;;
esac
# The expiry goes to the server as given (it knows the formats); it only has to fit a header.
case $expires in
  *[[:cntrl:]]*) say "--expires: control characters are not allowed"; exit 2 ;;
esac
# A view limit is a number in the init request's JSON, so it is checked here.
case $max_views in
  '' | none) ;;
  *[!0-9]* | ??????????*)
    say "--max-views takes a whole number or none, not: $max_views"
    exit 2
    ;;
  *) max_views=$((10#$max_views)) ;;
esac
if ! command -v curl >/dev/null 2>&1; then
  say "curl is required but was not found"
  exit 1
fi

# The link password is read (read_password) only when a new upload needs it: a resumed upload
# keeps the one typed when its session started, so another would be asked for in vain.
if [ "$ask_password" = 1 ] && ! { : </dev/tty; } 2>/dev/null; then
  say "--password-prompt needs a terminal to read the password from"
  exit 2
fi

# --- working files ---------------------------------------------------------------------------

umask 077
work=$(mktemp -d "${TMPDIR:-/tmp}/upshot.XXXXXX") || {
  say "could not create a temporary directory"
  exit 1
}
# Deletes the session of an upload of standard input that did not complete (after a failure,
# and on exit, an interruption included): no later run can resume it, and until it expired
# it would hold its size against the quota. Set by upload_chunked.
stdin_session=""
drop_stdin_session() {
  [ -n "$stdin_session" ] || return 0
  request -sS --max-time 20 -X DELETE "$url/api/chunked-upload/$stdin_session"
  stdin_session=""
}
trap 'drop_stdin_session; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

state_dir="${XDG_STATE_HOME:-$HOME/.local/state}/upshot"

# Escapes a value for a double-quoted string (curl's config file and -F file names).
dq_escape() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }

# The token goes to curl in a config file rather than on its command line, where any local
# user could read it in the process list.
token=$(printf '%s' "$token" | tr -d '\r\n')
{
  printf 'header = "X-API-Token: %s"\n' "$(dq_escape "$token")"
  printf 'user-agent = "upshot-script/1 (bash)"\n'
} >"$work/curlrc"
# The link settings of a simple upload, as headers: read by curl from this file too.
{
  [ -n "$privacy" ] && printf 'header = "X-Upshot-Public: %s"\n' "$privacy"
  [ -n "$expires" ] && printf 'header = "X-Upshot-Expires: %s"\n' "$(dq_escape "$expires")"
  [ -n "$max_views" ] && printf 'header = "X-Upshot-Max-Views: %s"\n' "$max_views"
} >"$work/link.curlrc"
# What a chunked session was started with, kept beside its id: a resumed upload must not get
# other settings than those asked for (the password is not kept, only whether there is one).
# The name is added only when given, so that state files written before --name still match.
link_options="public=$privacy expires=$expires max-views=$max_views password=$ask_password"
[ -n "$upload_name" ] && link_options="$link_options name=$upload_name"
# A state file written before there were link options has no link line: none were given.
no_link_options="public= expires= max-views= password=0"

# read_password: with --password-prompt, reads the link password once from the terminal,
# without echo, into this shell's memory and the headers file (no command line ever holds it).
# Fails, setting password_refused, on a password that cannot be sent.
password=""
password_refused=0
read_password() {
  { [ "$ask_password" = 1 ] && [ -z "$password" ]; } || return 0
  # read -s turns echo off before it prints the prompt, so nothing typed early shows.
  IFS= read -rs -p 'Link password: ' password </dev/tty 2>/dev/tty || password=""
  printf '\n' >/dev/tty
  case $password in
    '') say "no password given" ;;
    *[[:cntrl:]]*) say "the password must not hold control characters" ;;
    # A header (how it reaches the server) cannot carry spaces at its ends.
    [[:space:]]* | *[[:space:]]) say "the password must not begin or end with a space" ;;
    *)
      printf 'header = "X-Upshot-Password: %s"\n' "$(dq_escape "$password")" >>"$work/link.curlrc"
      return 0
      ;;
  esac
  password=""
  password_refused=1
  return 1
}

if [ -t 2 ]; then
  progress_opts=(--progress-bar)
  interactive=1
else
  progress_opts=(-sS)
  interactive=0
fi

# --- JSON (the server's answers are one line; no jq needed) --------------------------------

soh=$(printf '\001')
# json_string KEY JSON: the first string value of KEY, unescaped.
json_string() {
  printf '%s' "$2" |
    grep -oE "\"$1\"[[:space:]]*:[[:space:]]*\"([^\"\\\\]|\\\\.)*\"" |
    head -n 1 |
    sed -E -e "s/^\"$1\"[[:space:]]*:[[:space:]]*\"//" -e 's/"$//' \
      -e "s/\\\\\\\\/$soh/g" -e 's/\\"/"/g' -e 's/\\\//\//g' -e 's/\\[nrt]/ /g' \
      -e "s/$soh/\\\\/g"
}
# json_number KEY JSON: the first number value of KEY.
json_number() {
  printf '%s' "$2" | grep -oE "\"$1\"[[:space:]]*:[[:space:]]*[0-9]+" | head -n 1 | grep -oE '[0-9]+$'
}
# json_numbers KEY JSON: the numbers of KEY's array, separated by spaces.
json_numbers() {
  printf '%s' "$2" | grep -oE "\"$1\"[[:space:]]*:[[:space:]]*\\[[0-9,[:space:]]*\\]" | head -n 1 |
    sed -E 's/^.*\[//' | tr -c '0-9' ' '
}
# A string as JSON (control characters dropped: the server refuses them anyway).
json_quote() {
  printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\037\177' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

# --- HTTP ------------------------------------------------------------------------------------

# request [curl options...]: sets status (000 when no answer), body and curl_rc.
request() {
  : >"$work/body"
  status=$(curl -K "$work/curlrc" --connect-timeout 30 -o "$work/body" -w '%{http_code}' "$@")
  curl_rc=$?
  [ -n "$status" ] || status=000
  body=$(cat "$work/body")
}

# Whether the last request failed in a way worth another try: no connection or no answer,
# or a server error. Answers 4xx are final.
transient() {
  case $curl_rc in
    0) [ "$status" -ge 500 ] ;;
    5 | 6 | 7 | 18 | 28 | 35 | 52 | 55 | 56) return 0 ;;
    *) return 1 ;;
  esac
}

token_refused=0
# fail_request FILE: explains the last request's failure on stderr.
fail_request() {
  local message
  if [ "$curl_rc" -ne 0 ]; then
    say "$1: could not reach the server at $url (curl exit code $curl_rc)"
    return
  fi
  message=$(json_string message "$body")
  case $status in
    401)
      token_refused=1
      say "the server refused the API token; download a fresh script from Settings"
      ;;
    413) say "$1: ${message:-the file is too large (HTTP 413)}" ;;
    *)
      if [ -n "$message" ]; then
        say "$1: $message (HTTP $status)"
      else
        say "$1: the server answered HTTP $status"
      fi
      ;;
  esac
}

# --- files -----------------------------------------------------------------------------------

# file_stat FILE: "size mtime" (GNU stat, then BSD stat).
file_stat() {
  stat -c '%s %Y' -- "$1" 2>/dev/null || stat -f '%z %m' -- "$1" 2>/dev/null
}

absolute_path() {
  local dir
  dir=$(cd -P -- "$(dirname -- "$1")" && pwd -P) || return 1
  printf '%s/%s' "${dir%/}" "$(basename -- "$1")"
}

# A type from the file's contents; empty when `file` is missing or knows no more than "bytes"
# (then the server goes by the file name).
guess_mime() {
  local type
  command -v file >/dev/null 2>&1 || return 0
  type=$(file --mime-type -b -- "$1" 2>/dev/null) || return 0
  case $type in
    application/octet-stream | application/x-empty | inode/* | *[!a-zA-Z0-9.+/_-]* | */*/*) ;;
    ?*/?*) printf '%s' "$type" ;;
  esac
}

hash_key() {
  if command -v sha256sum >/dev/null 2>&1; then
    printf '%s' "$1" | sha256sum | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    printf '%s' "$1" | shasum -a 256 | cut -d ' ' -f 1
  else
    printf '%s' "$1" | cksum | tr ' ' '-'
  fi
}

byte_count() {
  local n
  n=$(wc -c <"$1" 2>/dev/null) || return 1
  printf '%s' $((n + 0))
}

# --- simple upload ---------------------------------------------------------------------------

# upload_simple FILE NAME MIME: sets link (the answer's url or previewUrl, as --link says).
upload_simple() {
  read_password || return 1
  request "${progress_opts[@]}" -K "$work/link.curlrc" \
    -F "file=@\"$(dq_escape "$1")\";filename=\"$(dq_escape "$2")\";type=${3:-application/octet-stream}" \
    "$url/api/upload"
  if [ "$curl_rc" -ne 0 ] || [ "$status" != 201 ]; then
    fail_request "$label"
    return 1
  fi
  link=$(json_string "$link_key" "$body")
  [ -n "$link" ] || { say "$label: the server's answer has no link"; return 1; }
}

# --- chunked upload --------------------------------------------------------------------------

# send_chunk FILE INDEX: sends chunk INDEX of the upload, trying again after a network error
# or a server error, and while the server still holds the chunk for a request that was cut
# short (409 "already being received", until the server lets another request take it after
# 30 s: waited out for up to 40 s).
send_chunk() {
  local file=$1 index=$2 offset size got attempt=1 busy=0 message
  offset=$((index * chunk_size))
  size=$chunk_size
  [ $((offset + size)) -gt "$file_size" ] && size=$((file_size - offset))
  tail -c +$((offset + 1)) -- "$file" 2>/dev/null | head -c "$size" >"$work/chunk"
  got=$(byte_count "$work/chunk")
  if [ "$got" != "$size" ]; then
    say "$label: could not read chunk $((index + 1)) (the file changed or cannot be read)"
    return 2
  fi
  while :; do
    request "${progress_opts[@]}" -F "uploadId=$upload_id" -F "chunkIndex=$index" \
      -F "chunk=@\"$(dq_escape "$work/chunk")\";type=application/octet-stream" \
      "$url/api/chunked-upload/chunk"
    [ "$curl_rc" -eq 0 ] && [ "$status" = 204 ] && return 0
    if [ "$curl_rc" -eq 0 ] && [ "$status" = 409 ]; then
      message=$(json_string message "$body")
      case $message in
        *"already complete"* | *"being completed"*) return 3 ;; # completion takes over
        *"being received"*)
          busy=$((busy + 1))
          if [ "$busy" -le 10 ]; then
            sleep 4
            continue
          fi
          ;;
      esac
    fi
    if transient && [ "$attempt" -lt 3 ]; then
      sleep $((attempt * 2))
      attempt=$((attempt + 1))
      continue
    fi
    fail_request "$label"
    return 1
  done
}

# complete_upload FILE: joins the chunks; sets link. Repeating it is safe (the server answers
# the same upload), so failures that may be passing are tried again.
complete_upload() {
  local attempt=1 body_json
  body_json="{\"uploadId\":$(json_quote "$upload_id")}"
  while :; do
    request -sS -H 'Content-Type: application/json' --data-binary "$body_json" \
      "$url/api/chunked-upload/complete"
    if [ "$curl_rc" -eq 0 ] && { [ "$status" = 201 ] || [ "$status" = 200 ]; }; then
      link=$(json_string "$link_key" "$body")
      [ -n "$link" ] && return 0
      say "$label: the server's answer has no link"
      return 1
    fi
    if { transient || [ "$status" = 409 ]; } && [ "$attempt" -lt 6 ]; then
      sleep $((attempt * 2))
      attempt=$((attempt + 1))
      continue
    fi
    fail_request "$label"
    return 1
  done
}

# init_upload FILE NAME MIME: starts a session with the link settings; sets upload_id,
# chunk_size, total_chunks. The JSON goes to curl in a file (it may hold the password).
init_upload() {
  local size_guess=$chunk_guess tries=0 message
  read_password || return 1
  while :; do
    total_chunks=$(((file_size + size_guess - 1) / size_guess))
    {
      printf '{"filename":%s,"mimeType":%s' "$(json_quote "$2")" "$(json_quote "$3")"
      printf ',"totalSize":%s,"totalChunks":%s' "$file_size" "$total_chunks"
      [ -n "$privacy" ] && printf ',"isPublic":%s' "$privacy"
      [ -n "$expires" ] && printf ',"expires":%s' "$(json_quote "$expires")"
      case $max_views in
        '') ;;
        none) printf ',"maxViews":null' ;;
        *) printf ',"maxViews":%s' "$max_views" ;;
      esac
      [ -n "$password" ] && printf ',"password":%s' "$(json_quote "$password")"
      printf '}'
    } >"$work/init.json"
    request -sS -H 'Content-Type: application/json' --data-binary "@$work/init.json" \
      "$url/api/chunked-upload/init"
    if [ "$curl_rc" -eq 0 ] && [ "$status" = 400 ] && [ "$tries" = 0 ]; then
      # A server set up with another chunk size says which in its refusal.
      message=$(json_string message "$body")
      case $message in
        *"-byte chunks"*)
          size_guess=$(printf '%s' "$message" | grep -oE '[0-9]+-byte chunks' | grep -oE '^[0-9]+')
          tries=1
          [ -n "$size_guess" ] && [ "$size_guess" -gt 0 ] && continue
          ;;
      esac
    fi
    if [ "$curl_rc" -ne 0 ] || [ "$status" != 201 ]; then
      fail_request "$label"
      return 1
    fi
    upload_id=$(json_string uploadId "$body")
    chunk_size=$(json_number chunkSize "$body")
    if [ -z "$upload_id" ] || [ -z "$chunk_size" ] || [ "$chunk_size" -le 0 ] ||
      [ $(((file_size + chunk_size - 1) / chunk_size)) != "$total_chunks" ]; then
      say "$label: the server's answer to the start of the upload is not understood"
      return 1
    fi
    received=" "
    return 0
  done
}

# resume_upload FILE: asks the server about the session in the state file; sets
# received, chunk_size and total_chunks, or empties upload_id when it must start over.
resume_upload() {
  local total have count=0 n
  request -sS "$url/api/chunked-upload/$upload_id"
  if [ "$curl_rc" -eq 0 ] && [ "$status" = 404 ]; then
    say "$label: the earlier upload session is gone (expired or removed); starting over"
    upload_id=""
    return 0
  fi
  if [ "$curl_rc" -ne 0 ] || [ "$status" != 200 ]; then
    fail_request "$label"
    return 1
  fi
  total=$(json_number totalSize "$body")
  chunk_size=$(json_number chunkSize "$body")
  total_chunks=$(json_number totalChunks "$body")
  if [ "$total" != "$file_size" ] || [ -z "$chunk_size" ] || [ -z "$total_chunks" ]; then
    upload_id=""
    return 0
  fi
  have=$(json_numbers receivedChunks "$body")
  received=" "
  for n in $have; do
    received="$received$n "
    count=$((count + 1))
  done
  say "Resuming upload: $count of $total_chunks chunks already on the server"
}

# upload_chunked FILE NAME MIME [ABSPATH MTIME]: prints the link. Without ABSPATH (standard
# input, which a later run cannot read again) nothing is kept for resuming, and the session is
# noted in stdin_session for drop_stdin_session until it completes.
upload_chunked() {
  local file=$1 key state="" saved_key saved_id saved_link i rc
  upload_id=""
  if [ -n "${4:-}" ]; then
    key="$url|$file_size|$5|$4"
    state="$state_dir/$(hash_key "$key")"
  fi
  if [ -n "$state" ] && [ -f "$state" ]; then
    saved_key="" saved_id="" saved_link=""
    { IFS= read -r saved_key; IFS= read -r saved_id; IFS= read -r saved_link; } <"$state"
    [ -n "$saved_link" ] || saved_link="link=$no_link_options"
    if [ "$saved_key" = "key=$key" ] && [ -n "${saved_id#upload_id=}" ]; then
      upload_id=${saved_id#upload_id=}
      if [ "$saved_link" = "link=$link_options" ]; then
        resume_upload "$file" || return 1
        if [ -n "$upload_id" ] && [ "$ask_password" = 1 ]; then
          say "$label: the link password typed when this upload started applies; not asking again"
        fi
      else
        say "$label: the link options differ from the interrupted upload's; starting over"
        request -sS -X DELETE "$url/api/chunked-upload/$upload_id"
        upload_id=""
      fi
    fi
    [ -n "$upload_id" ] || rm -f -- "$state"
  fi
  if [ -z "$upload_id" ]; then
    init_upload "$file" "$2" "$3" || return 1
    if [ -z "$state" ]; then
      stdin_session=$upload_id
    elif mkdir -p -- "$state_dir" 2>/dev/null &&
      printf 'key=%s\nupload_id=%s\nlink=%s\n' "$key" "$upload_id" "$link_options" >"$state.tmp" &&
      mv -f -- "$state.tmp" "$state"; then
      :
    else
      say "$label: note: cannot write $state_dir; an interrupted upload will start over"
    fi
  fi

  i=0
  while [ "$i" -lt "$total_chunks" ]; do
    case $received in
      *" $i "*) ;;
      *)
        [ "$interactive" = 1 ] && printf 'chunk %s/%s\n' $((i + 1)) "$total_chunks" >&2
        send_chunk "$file" "$i"
        rc=$?
        [ "$rc" = 3 ] && break
        [ "$rc" = 0 ] || return 1
        ;;
    esac
    i=$((i + 1))
  done
  complete_upload "$file" || return 1
  stdin_session=""
  [ -z "$state" ] || rm -f -- "$state"
}

# --- standard input --------------------------------------------------------------------------

# read_stdin: copies standard input to a file in the private working directory (0600, by the
# umask), so that its size picks a simple or a chunked upload and chunks can be read again.
# Sets stdin_name, the name it gets without --name.
read_stdin() {
  stdin_name="stdin-$(date -u +%Y%m%dT%H%M%SZ).txt"
  [ -t 0 ] && say "reading standard input; end it with Ctrl-D"
  if ! cat >"$work/stdin"; then
    say "standard input: could not copy it to $work (is the disk full?)"
    return 1
  fi
  # Most often a command before the pipe that failed: an empty upload would hide that.
  if [ ! -s "$work/stdin" ]; then
    say "standard input is empty; nothing uploaded"
    return 1
  fi
}

# --- main ------------------------------------------------------------------------------------

links=""
failed=0
for f in "${files[@]}"; do
  if [ "$token_refused" = 1 ] || [ "$password_refused" = 1 ]; then
    failed=1
    break
  fi
  label=$f
  from_stdin=0
  if [ "$f" = - ]; then
    label="standard input"
    from_stdin=1
    f=$work/stdin
    read_stdin || { rm -f -- "$f"; failed=1; continue; }
  elif [ ! -e "$f" ]; then
    say "file not found: $f"
    failed=1
    continue
  fi
  if [ -d "$f" ]; then
    say "not a file: $f"
    failed=1
    continue
  fi
  if [ ! -r "$f" ]; then
    say "cannot read file: $f"
    failed=1
    continue
  fi
  info=$(file_stat "$f")
  file_size=${info%% *}
  mtime=${info#* }
  case "$file_size$mtime" in
    '' | *[!0-9]*)
      say "cannot read file: $f"
      failed=1
      continue
      ;;
  esac
  if [ -n "$upload_name" ]; then
    name=$upload_name
  elif [ "$from_stdin" = 1 ]; then
    name=$stdin_name
  else
    name=$(basename -- "$f")
  fi
  mime=$(guess_mime "$f")
  link=""
  [ "$interactive" = 1 ] && say "uploading $name"
  sent=1
  if [ "$file_size" -le "$simple_limit" ]; then
    upload_simple "$f" "$name" "$mime" || sent=0
  elif [ "$from_stdin" = 1 ]; then
    upload_chunked "$f" "$name" "$mime" || { drop_stdin_session; sent=0; }
  else
    abs=$(absolute_path "$f") || abs=$f
    upload_chunked "$f" "$name" "$mime" "$abs" "$mtime" || sent=0
  fi
  [ "$from_stdin" = 1 ] && rm -f -- "$f"
  [ "$sent" = 1 ] || { failed=1; continue; }
  printf '%s\n' "$link"
  if [ -z "$links" ]; then links=$link; else links="$links
$link"; fi
done

if [ -n "$links" ]; then
  copied=""
  if [ -n "${WAYLAND_DISPLAY:-}" ] && command -v wl-copy >/dev/null 2>&1; then
    printf '%s' "$links" | wl-copy >/dev/null 2>&1 && copied=1
  elif [ -n "${DISPLAY:-}" ] && command -v xclip >/dev/null 2>&1; then
    printf '%s' "$links" | xclip -selection clipboard >/dev/null 2>&1 && copied=1
  elif command -v pbcopy >/dev/null 2>&1; then
    printf '%s' "$links" | pbcopy >/dev/null 2>&1 && copied=1
  fi
  [ -n "$copied" ] && [ "$interactive" = 1 ] && say "copied to the clipboard"
fi

[ "$password_refused" = 1 ] && exit 2
exit "$failed"
