# Upshot upload script for Windows PowerShell 5.1 and PowerShell 7, made for one account.
#
#   .\upshot.ps1 [-Private | -Public] [-Expires WHEN] [-MaxViews N] [-PasswordPrompt]
#                 [-Link file | preview] FILE...
#
# Uploads each file, prints its link (one per line) and puts the link(s) on the clipboard.
# Files over 100 MiB go in chunks; when such an upload is cut short, running the script again
# on the same file sends only the chunks the server lacks.
# -Expires (30m, 12h, 7d, 1y, an ISO date-time, or never) and -MaxViews (a number, or none)
# limit the links; -PasswordPrompt asks for a password for them without echo (Read-Host
# -AsSecureString) and sends it in the request body, never on a command line.
# The link printed is the file's or its preview page's, as the account's Link style was when
# this script was downloaded; -Link file or -Link preview chooses for one run.
#
# This file holds your personal API token: keep it to yourself. The environment variables
# UPSHOT_URL and UPSHOT_TOKEN take the place of the values written below.
#
# When Windows refuses to run a downloaded script, unblock it once:
#   Unblock-File .\upshot.ps1
# or run it with: powershell -ExecutionPolicy Bypass -File .\upshot.ps1 FILE

[CmdletBinding()]
param(
    [switch]$Private,
    [switch]$Public,
    [string]$Expires,
    [string]$MaxViews,
    [switch]$PasswordPrompt,
    [string]$Link,
    [Alias('h')]
    [switch]$Help,
    [Parameter(Position = 0, ValueFromRemainingArguments = $true)]
    [string[]]$Path
)

$DefaultUrl = '__UPSHOT_URL__'
$DefaultToken = '__UPSHOT_TOKEN__'
$UserName = '__UPSHOT_USERNAME__'
# Which link to print: the file's own (file) or its preview page's (preview).
$DefaultLink = '__UPSHOT_LINK__'

# The server's limits: a simple upload takes up to 100 MiB; larger files go in chunks of the
# size the server answers (50 MiB today).
$SimpleLimit = 104857600
$ChunkGuess = 52428800

$BaseUrl = $DefaultUrl
if ($env:UPSHOT_URL) { $BaseUrl = $env:UPSHOT_URL }
$BaseUrl = $BaseUrl.TrimEnd('/')
$Token = $DefaultToken
if ($env:UPSHOT_TOKEN) { $Token = $env:UPSHOT_TOKEN }
$Token = $Token.Trim()

$ErrorActionPreference = 'Stop'

function Show-Usage {
    @"
Usage: .\upshot.ps1 [OPTIONS] FILE...

Uploads each FILE to $BaseUrl as $UserName, prints its link and copies the
link(s) to the clipboard. Files over 100 MiB are sent in chunks; run the same command
again to resume an interrupted upload.

  -Private          make the uploads private (only you can open the links)
  -Public           make the uploads public
  -Expires WHEN     the links stop working after WHEN: a duration such as 30m, 12h,
                    7d, 2w or 1y, an ISO date-time such as 2026-12-31T23:00:00Z,
                    or never
  -MaxViews N       the links work for N views, then stop (none: no limit)
  -PasswordPrompt   ask for a password (typed without echo) that visitors must give
                    to open the links
  -Link STYLE       print the link to the file itself (file) or to its preview
                    page (preview); without it: $DefaultLink, your Link style
                    when this script was downloaded
  -Help             show this help

What you leave out follows your defaults from Settings (privacy, expiry, view limit).
An interrupted upload resumes only with the same options, and keeps the password
typed when it started: -PasswordPrompt does not ask again then.
UPSHOT_URL and UPSHOT_TOKEN in the environment override the server and the token.
"@
}

function Write-UpshotError([string]$Message) { $Host.UI.WriteErrorLine("upshot: $Message") }
function Write-UpshotNote([string]$Message) { Write-Host "upshot: $Message" }

if ($Help) {
    Show-Usage
    exit 0
}
if ($Private -and $Public) {
    Write-UpshotError 'choose -Private or -Public, not both'
    exit 2
}
if (-not $Path -or $Path.Count -eq 0) {
    Show-Usage | Write-Host
    exit 2
}

# Which link each upload prints: the answer's url (file) or previewUrl (preview).
$LinkStyle = $DefaultLink
if ($PSBoundParameters.ContainsKey('Link')) { $LinkStyle = "$Link".ToLowerInvariant() }
if ($LinkStyle -cne 'file' -and $LinkStyle -cne 'preview') {
    Write-UpshotError "-Link takes file or preview, not: $LinkStyle"
    exit 2
}

# $null: the user's default privacy from Settings decides.
$IsPublic = $null
if ($Private) { $IsPublic = $false }
if ($Public) { $IsPublic = $true }

# The link's expiry goes to the server as given (it knows the formats); $null: not given.
$LinkExpires = $null
if ($PSBoundParameters.ContainsKey('Expires')) {
    if (-not $Expires) {
        Write-UpshotError '-Expires needs a value (see -Help)'
        exit 2
    }
    if ($Expires -match '[\x00-\x1f\x7f]') {
        Write-UpshotError '-Expires: control characters are not allowed'
        exit 2
    }
    $LinkExpires = $Expires
}
# A view limit is a number in the chunked upload's JSON, so it is checked here.
# $LinkMaxViews: 'none', a number as digits, or $null when not given.
$LinkMaxViews = $null
if ($PSBoundParameters.ContainsKey('MaxViews')) {
    if ($MaxViews -ceq 'none') {
        $LinkMaxViews = 'none'
    } elseif ($MaxViews -match '^[0-9]{1,9}$') {
        $LinkMaxViews = [string][int]$MaxViews
    } else {
        Write-UpshotError "-MaxViews takes a whole number or none, not: $MaxViews"
        exit 2
    }
}

# The link password, read without echo only when a new upload needs it (a resumed upload
# keeps the one typed when its session started), then kept for the others. It is sent in the
# request bodies (a multipart field, the chunked upload's JSON), which carry any character,
# where a header could not.
$LinkPassword = $null
$script:PasswordRefused = $false
# Answers $false, setting PasswordRefused, when the password typed cannot be sent.
function Read-LinkPassword {
    if (-not $PasswordPrompt -or $null -ne $script:LinkPassword) { return $true }
    $secure = Read-Host -Prompt 'Link password' -AsSecureString
    $typed = [System.Net.NetworkCredential]::new('', $secure).Password
    $problem = $null
    if (-not $typed) {
        $problem = 'no password given'
    } elseif ($typed -match '[\x00-\x1f\x7f]') {
        $problem = 'the password must not hold control characters'
    } elseif ($typed -match '^\s|\s$') {
        # As the bash script: a visitor's script sends it in a header, which drops end spaces.
        $problem = 'the password must not begin or end with a space'
    }
    if ($problem) {
        Write-UpshotError $problem
        $script:PasswordRefused = $true
        return $false
    }
    $script:LinkPassword = $typed
    return $true
}
# What a chunked session was started with, kept beside its id: a resumed upload must not get
# other settings than those asked for (the password is not kept, only whether there is one).
$LinkOptions = 'public={0} expires={1} max-views={2} password={3}' -f $IsPublic, $LinkExpires, $LinkMaxViews, $PasswordPrompt.IsPresent
# A state file written before there were link options has no link: none were given.
$NoLinkOptions = 'public= expires= max-views= password=False'

# --- HTTP ----------------------------------------------------------------------------------
# Invoke-RestMethod in Windows PowerShell 5.1 cannot send multipart forms, so every request
# goes through one HttpClient, the same on 5.1 and 7.

Add-Type -AssemblyName System.Net.Http
try {
    [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
} catch { }
$Client = [System.Net.Http.HttpClient]::new()
$Client.Timeout = [TimeSpan]::FromHours(1)
$Client.DefaultRequestHeaders.ExpectContinue = $false
[void]$Client.DefaultRequestHeaders.TryAddWithoutValidation('X-API-Token', $Token)
[void]$Client.DefaultRequestHeaders.TryAddWithoutValidation('User-Agent', 'upshot-script/1 (PowerShell)')

$script:TokenRefused = $false

# The innermost exception's message: the one that names the cause.
function Get-Reason($Exception) {
    $e = $Exception
    while ($null -ne $e.InnerException) { $e = $e.InnerException }
    return $e.Message
}

# Sends one request (and disposes its content). Status 0 means no answer; Json is the parsed
# body, or $null.
function Invoke-Upshot([string]$Method, [string]$Route, [System.Net.Http.HttpContent]$Content) {
    $request = [System.Net.Http.HttpRequestMessage]::new([System.Net.Http.HttpMethod]::new($Method), "$BaseUrl$Route")
    if ($null -ne $Content) { $request.Content = $Content }
    $result = [pscustomobject]@{ Status = 0; Json = $null; Text = ''; Failure = '' }
    try {
        $response = $Client.SendAsync($request).GetAwaiter().GetResult()
        try {
            $result.Status = [int]$response.StatusCode
            $result.Text = $response.Content.ReadAsStringAsync().GetAwaiter().GetResult()
        } finally {
            $response.Dispose()
        }
    } catch {
        $result.Failure = Get-Reason $_.Exception
    } finally {
        $request.Dispose()
    }
    if ($result.Text) {
        try { $result.Json = $result.Text | ConvertFrom-Json } catch { $result.Json = $null }
    }
    return $result
}

# Worth another try: no answer at all, or a server error. Answers 4xx are final.
function Test-Transient($Result) {
    return ($Result.Status -eq 0 -or $Result.Status -ge 500)
}

function Write-Failure([string]$FileName, $Result) {
    if ($Result.Status -eq 0) {
        Write-UpshotError "${FileName}: could not reach the server at $BaseUrl ($($Result.Failure))"
        return
    }
    $message = $null
    if ($null -ne $Result.Json) { $message = [string]$Result.Json.message }
    if ($Result.Status -eq 401) {
        $script:TokenRefused = $true
        Write-UpshotError 'the server refused the API token; download a fresh script from Settings'
    } elseif ($Result.Status -eq 413 -and $message) {
        Write-UpshotError "${FileName}: $message"
    } elseif ($message) {
        Write-UpshotError "${FileName}: $message (HTTP $($Result.Status))"
    } else {
        Write-UpshotError "${FileName}: the server answered HTTP $($Result.Status)"
    }
}

# The link an upload's answer gives for the chosen style: the file's, or its preview page's.
function Get-UploadLink($Json) {
    if ($LinkStyle -ceq 'preview') { return [string]$Json.previewUrl }
    return [string]$Json.url
}

function New-JsonContent($Value) {
    $json = ConvertTo-Json $Value -Compress
    return [System.Net.Http.StringContent]::new($json, [System.Text.Encoding]::UTF8, 'application/json')
}

# A file part: the name in plain ASCII, and in full (UTF-8) as filename* when it differs.
function Add-FilePart([System.Net.Http.MultipartFormDataContent]$Form, [System.Net.Http.HttpContent]$Part, [string]$Field, [string]$FileName) {
    $ascii = $FileName -replace '[^\x20-\x7E]|["\\]', '_'
    $disposition = [System.Net.Http.Headers.ContentDispositionHeaderValue]::new('form-data')
    # An unquoted name: busboy reads filename* only from a header that does not start
    # form-data; name="..." (its fast path for that shape stops at filename).
    $disposition.Name = $Field
    $disposition.FileName = '"' + $ascii + '"'
    if ($ascii -cne $FileName) { $disposition.FileNameStar = $FileName }
    $Part.Headers.ContentDisposition = $disposition
    $Part.Headers.ContentType = [System.Net.Http.Headers.MediaTypeHeaderValue]::new('application/octet-stream')
    $Form.Add($Part)
}

# --- simple upload (up to 100 MiB) ---------------------------------------------------------

function Send-Simple([System.IO.FileInfo]$File) {
    if (-not (Read-LinkPassword)) { return $null }
    $form = [System.Net.Http.MultipartFormDataContent]::new()
    # The fields come before the file: the server reads the file as it streams.
    if ($null -ne $IsPublic) {
        $flag = 'false'
        if ($IsPublic) { $flag = 'true' }
        $form.Add([System.Net.Http.StringContent]::new($flag), 'isPublic')
    }
    if ($null -ne $LinkExpires) { $form.Add([System.Net.Http.StringContent]::new($LinkExpires), 'expires') }
    if ($null -ne $LinkMaxViews) { $form.Add([System.Net.Http.StringContent]::new($LinkMaxViews), 'maxViews') }
    if ($null -ne $LinkPassword) { $form.Add([System.Net.Http.StringContent]::new($LinkPassword), 'password') }
    $stream = [System.IO.File]::Open($File.FullName, [System.IO.FileMode]::Open, [System.IO.FileAccess]::Read, [System.IO.FileShare]::Read)
    $content = [System.Net.Http.StreamContent]::new($stream)
    Add-FilePart $form $content 'file' $File.Name
    $activity = "Uploading $($File.Name)"
    Write-Progress -Activity $activity -Status ('{0:N1} MiB' -f ($File.Length / 1048576))
    # The request disposes the form, and with it the file stream.
    $result = Invoke-Upshot 'POST' '/api/upload' $form
    Write-Progress -Activity $activity -Completed
    if ($result.Status -ne 201) {
        Write-Failure $File.Name $result
        return $null
    }
    return Get-UploadLink $result.Json
}

# --- chunked upload (over 100 MiB), resumable ----------------------------------------------

function Get-StatePath([string]$Key) {
    $dir = $env:LOCALAPPDATA
    if (-not $dir) { $dir = [Environment]::GetFolderPath('LocalApplicationData') }
    $sha = [System.Security.Cryptography.SHA256]::Create()
    try {
        $bytes = $sha.ComputeHash([System.Text.Encoding]::UTF8.GetBytes($Key))
    } finally {
        $sha.Dispose()
    }
    $hex = -join ($bytes | ForEach-Object { $_.ToString('x2') })
    return [System.IO.Path]::Combine($dir, 'Upshot', "$hex.json")
}

# The session saved for this file (same server, path, size and time) as @{ UploadId; Link },
# or $null.
function Read-State([string]$StatePath, [string]$Key) {
    if (-not [System.IO.File]::Exists($StatePath)) { return $null }
    try {
        $state = [System.IO.File]::ReadAllText($StatePath) | ConvertFrom-Json
        if ([string]$state.key -ceq $Key -and $state.uploadId) {
            $link = [string]$state.link
            if (-not $link) { $link = $NoLinkOptions }
            return @{ UploadId = [string]$state.uploadId; Link = $link }
        }
    } catch { }
    return $null
}

function Save-State([string]$StatePath, [string]$Key, [string]$UploadId) {
    try {
        [void][System.IO.Directory]::CreateDirectory([System.IO.Path]::GetDirectoryName($StatePath))
        $json = ConvertTo-Json ([ordered]@{ key = $Key; uploadId = $UploadId; link = $LinkOptions })
        [System.IO.File]::WriteAllText($StatePath, $json)
    } catch {
        Write-UpshotNote "cannot write $StatePath; an interrupted upload will start over"
    }
}

function Remove-State([string]$StatePath) {
    try { [System.IO.File]::Delete($StatePath) } catch { }
}

# Starts a session: answers @{ UploadId; ChunkSize; TotalChunks; Received }, or $null.
function Start-ChunkedUpload([System.IO.FileInfo]$File) {
    if (-not (Read-LinkPassword)) { return $null }
    $guess = [long]$ChunkGuess
    for ($try = 0; $try -lt 2; $try++) {
        $totalChunks = [long][math]::Ceiling($File.Length / $guess)
        $payload = [ordered]@{
            filename = $File.Name
            mimeType = ''
            totalSize = [long]$File.Length
            totalChunks = $totalChunks
        }
        if ($null -ne $IsPublic) { $payload.isPublic = [bool]$IsPublic }
        if ($null -ne $LinkExpires) { $payload.expires = $LinkExpires }
        if ($LinkMaxViews -eq 'none') {
            $payload.maxViews = $null
        } elseif ($null -ne $LinkMaxViews) {
            $payload.maxViews = [int]$LinkMaxViews
        }
        if ($null -ne $LinkPassword) { $payload.password = $LinkPassword }
        $result = Invoke-Upshot 'POST' '/api/chunked-upload/init' (New-JsonContent $payload)
        # A server set up with another chunk size says which in its refusal.
        if ($result.Status -eq 400 -and $try -eq 0 -and $null -ne $result.Json -and
            [string]$result.Json.message -match '(\d+)-byte chunks') {
            $guess = [long]$Matches[1]
            continue
        }
        if ($result.Status -ne 201) {
            Write-Failure $File.Name $result
            return $null
        }
        $chunkSize = [long]$result.Json.chunkSize
        if (-not $result.Json.uploadId -or $chunkSize -le 0 -or
            [long][math]::Ceiling($File.Length / $chunkSize) -ne $totalChunks) {
            Write-UpshotError "$($File.Name): the server's answer to the start of the upload is not understood"
            return $null
        }
        return @{
            UploadId = [string]$result.Json.uploadId
            ChunkSize = $chunkSize
            TotalChunks = $totalChunks
            Received = @()
        }
    }
    return $null
}

# Reads $Count bytes at $Offset into $script:Buffer; answers how many it read.
function Read-Chunk([System.IO.FileStream]$Stream, [long]$Offset, [int]$Count) {
    [void]$Stream.Seek($Offset, [System.IO.SeekOrigin]::Begin)
    $done = 0
    while ($done -lt $Count) {
        $n = $Stream.Read($script:Buffer, $done, $Count - $done)
        if ($n -le 0) { break }
        $done += $n
    }
    return $done
}

# Sends chunk $Index ($Count bytes of $script:Buffer): fields uploadId and chunkIndex, then the
# bytes. Tries again after no answer or a server error, and while the server still holds the
# chunk for a request that was cut short (409 "already being received", until the server lets
# another request take it after 30 s: waited out for up to 40 s).
# Answers 'sent', 'completing' (the session is already being completed) or 'failed'.
function Send-Chunk([string]$FileName, [string]$UploadId, [long]$Index, [int]$Count) {
    $attempt = 1
    $busy = 0
    while ($true) {
        $form = [System.Net.Http.MultipartFormDataContent]::new()
        $form.Add([System.Net.Http.StringContent]::new($UploadId), 'uploadId')
        $form.Add([System.Net.Http.StringContent]::new([string]$Index), 'chunkIndex')
        $bytes = [System.Net.Http.ByteArrayContent]::new($script:Buffer, 0, $Count)
        Add-FilePart $form $bytes 'chunk' 'blob'
        $result = Invoke-Upshot 'POST' '/api/chunked-upload/chunk' $form
        if ($result.Status -eq 204) { return 'sent' }
        if ($result.Status -eq 409 -and $null -ne $result.Json) {
            $message = [string]$result.Json.message
            if ($message -match 'already complete|being completed') { return 'completing' }
            if ($message -match 'being received' -and $busy -lt 10) {
                $busy++
                Start-Sleep -Seconds 4
                continue
            }
        }
        if ((Test-Transient $result) -and $attempt -lt 3) {
            Start-Sleep -Seconds (2 * $attempt)
            $attempt++
            continue
        }
        Write-Failure $FileName $result
        return 'failed'
    }
}

# Joins the chunks; answers the link or $null. Repeating it is safe (the server answers the
# same upload), so failures that may be passing are tried again.
function Complete-Upload([string]$FileName, [string]$UploadId) {
    $attempt = 1
    while ($true) {
        $result = Invoke-Upshot 'POST' '/api/chunked-upload/complete' (New-JsonContent @{ uploadId = $UploadId })
        if ($result.Status -eq 201 -or $result.Status -eq 200) { return Get-UploadLink $result.Json }
        if (((Test-Transient $result) -or $result.Status -eq 409) -and $attempt -lt 6) {
            Start-Sleep -Seconds (2 * $attempt)
            $attempt++
            continue
        }
        Write-Failure $FileName $result
        return $null
    }
}

function Send-Chunked([System.IO.FileInfo]$File) {
    $name = $File.Name
    $key = '{0}|{1}|{2}|{3}' -f $BaseUrl, $File.Length, $File.LastWriteTimeUtc.Ticks, $File.FullName
    $statePath = Get-StatePath $key
    $session = $null

    $state = Read-State $statePath $key
    $saved = $null
    if ($state -and $state.Link -cne $LinkOptions) {
        Write-UpshotNote "${name}: the link options differ from the interrupted upload's; starting over"
        [void](Invoke-Upshot 'DELETE' "/api/chunked-upload/$($state.UploadId)" $null)
        Remove-State $statePath
    } elseif ($state) {
        $saved = $state.UploadId
    }
    if ($saved) {
        $result = Invoke-Upshot 'GET' "/api/chunked-upload/$saved" $null
        if ($result.Status -eq 200 -and $null -ne $result.Json -and [long]$result.Json.totalSize -eq $File.Length) {
            $received = @($result.Json.receivedChunks | Where-Object { $null -ne $_ } | ForEach-Object { [long]$_ })
            $session = @{
                UploadId = $saved
                ChunkSize = [long]$result.Json.chunkSize
                TotalChunks = [long]$result.Json.totalChunks
                Received = $received
            }
            Write-UpshotNote ('Resuming upload: {0} of {1} chunks already on the server' -f $received.Count, $session.TotalChunks)
            if ($PasswordPrompt) {
                Write-UpshotNote "${name}: the link password typed when this upload started applies; not asking again"
            }
        } elseif ($result.Status -eq 404 -or $result.Status -eq 200) {
            if ($result.Status -eq 404) {
                Write-UpshotNote "${name}: the earlier upload session is gone (expired or removed); starting over"
            }
            Remove-State $statePath
        } else {
            Write-Failure $name $result
            return $null
        }
    }
    if ($null -eq $session) {
        $session = Start-ChunkedUpload $File
        if ($null -eq $session) { return $null }
        Save-State $statePath $key $session.UploadId
    }

    $chunkSize = [long]$session.ChunkSize
    $total = [long]$session.TotalChunks
    if ($chunkSize -le 0 -or [long][math]::Ceiling($File.Length / $chunkSize) -ne $total) {
        Write-UpshotError "${name}: the server's answer about the upload is not understood"
        return $null
    }
    if ($null -eq $script:Buffer -or $script:Buffer.Length -ne $chunkSize) {
        $script:Buffer = New-Object byte[] ([int]$chunkSize)
    }
    $activity = "Uploading $name"
    $stream = [System.IO.File]::Open($File.FullName, [System.IO.FileMode]::Open, [System.IO.FileAccess]::Read, [System.IO.FileShare]::Read)
    try {
        for ($i = [long]0; $i -lt $total; $i++) {
            if ($session.Received -contains $i) { continue }
            Write-Progress -Activity $activity -Status ('chunk {0} of {1}' -f ($i + 1), $total) -PercentComplete ([int](100 * $i / $total))
            $offset = $i * $chunkSize
            $count = [int][math]::Min($chunkSize, $File.Length - $offset)
            $read = Read-Chunk $stream $offset $count
            if ($read -ne $count) {
                Write-UpshotError "${name}: could not read chunk $($i + 1) (the file changed or cannot be read)"
                return $null
            }
            $outcome = Send-Chunk $name $session.UploadId $i $count
            if ($outcome -eq 'completing') { break }
            if ($outcome -ne 'sent') { return $null }
        }
    } finally {
        $stream.Dispose()
        Write-Progress -Activity $activity -Completed
    }
    $link = Complete-Upload $name $session.UploadId
    if ($link) { Remove-State $statePath }
    return $link
}

# --- main ----------------------------------------------------------------------------------

# The files an argument names: itself, or what its wildcards match.
function Resolve-Files([string]$Item) {
    if (Test-Path -LiteralPath $Item -PathType Leaf) {
        return Get-Item -LiteralPath $Item -Force
    }
    if (Test-Path -LiteralPath $Item -PathType Container) {
        Write-UpshotError "not a file: $Item"
        return
    }
    if ([System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($Item)) {
        $found = @(Get-Item -Path $Item -Force -ErrorAction SilentlyContinue | Where-Object { $_ -is [System.IO.FileInfo] })
        if ($found.Count -gt 0) { return $found }
    }
    Write-UpshotError "file not found: $Item"
}

$script:Buffer = $null
$links = New-Object System.Collections.Generic.List[string]
$failed = $false
foreach ($item in $Path) {
    if ($script:TokenRefused -or $script:PasswordRefused) { break }
    $files = @(Resolve-Files $item)
    if ($files.Count -eq 0) {
        $failed = $true
        continue
    }
    foreach ($file in $files) {
        if ($script:TokenRefused -or $script:PasswordRefused) { break }
        if ($file -isnot [System.IO.FileInfo]) {
            Write-UpshotError "not a file: $item"
            $failed = $true
            continue
        }
        # Not $link: PowerShell's names ignore case, and $Link is the -Link parameter.
        $uploaded = $null
        try {
            if ($file.Length -le $SimpleLimit) {
                $uploaded = Send-Simple $file
            } else {
                $uploaded = Send-Chunked $file
            }
        } catch {
            Write-UpshotError ('{0}: {1}' -f $file.Name, (Get-Reason $_.Exception))
        }
        if ($uploaded) {
            Write-Output $uploaded
            $links.Add([string]$uploaded)
        } else {
            $failed = $true
        }
    }
}
if ($script:TokenRefused) { $failed = $true }

if ($links.Count -gt 0 -and (Get-Command Set-Clipboard -ErrorAction SilentlyContinue)) {
    try {
        Set-Clipboard -Value ($links -join [Environment]::NewLine)
    } catch { }
}
$Client.Dispose()

if ($script:PasswordRefused) { exit 2 }
if ($failed) { exit 1 }
exit 0
