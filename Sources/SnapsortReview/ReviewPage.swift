import FlyingFox

/// The review page: one HTML document, its style and its script, served from the binary (no
/// file to install beside it, nothing fetched from elsewhere).
enum ReviewPage {
  /// Only this server's own script, style and images; no inline code, no frames, no forms
  /// posted anywhere.
  static let securityHeaders: [HTTPHeader: String] = [
    HTTPHeader("Content-Security-Policy"):
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
      + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    HTTPHeader("Referrer-Policy"): "no-referrer",
    HTTPHeader("X-Content-Type-Options"): "nosniff",
  ]

  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>snapsort review</title>
    <link rel="stylesheet" href="/review.css">
    </head>
    <body>
    <header><h1>snapsort review</h1><span id="status" role="status"></span></header>
    <main>
    <section id="side">
    <form id="find"><input id="search" type="search" autocomplete="off" aria-label="search"
      placeholder="search as snapsort search does: coffee -decaf --kind card"></form>
    <p class="explain">Records that most need a look come first. Each reason under a record adds \
    the points shown beside it, and the score is their sum; a field you correct stops counting.</p>
    <p id="count"></p>
    <ol id="queue"></ol>
    <button id="more" type="button" hidden></button>
    </section>
    <section id="detail"><p class="hint">Choose a record from the queue.</p></section>
    </main>
    <script src="/review.js"></script>
    </body>
    </html>
    """

  static let style = """
    *{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;color:#222;background:#fafafa}
    header{display:flex;gap:16px;align-items:baseline;padding:8px 16px;background:#234;color:#fff}
    h1{font-size:18px;margin:0}#status{font-size:13px}#status.error{color:#fbb}
    main{display:flex;gap:16px;padding:12px 16px;align-items:flex-start}
    #side{width:380px;flex:none}#detail{flex:1;min-width:0}
    #search{width:100%;padding:6px;font-size:14px}.explain{font-size:12px;color:#555}
    #queue{list-style:none;padding:0;margin:0;max-height:calc(100vh - 190px);overflow:auto}
    #queue>li{padding:6px 8px;border:1px solid #ddd;border-radius:4px;margin-bottom:6px;background:#fff;cursor:pointer}
    #queue>li.open{border-color:#36c;box-shadow:0 0 0 2px #9bd}
    .score{display:inline-block;min-width:34px;font-weight:bold;color:#a40}.title{font-weight:600}
    .meta{display:block;font-size:12px;color:#666}.reasons{margin:2px 0 0;padding-left:18px;font-size:12px;color:#444}
    .card{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
    .frame{position:relative;width:min(560px,100%);background:#eee}.frame img{display:block;width:100%}
    .frame svg{position:absolute;left:0;top:0;width:100%;height:100%;touch-action:none}
    .quad{fill:rgba(0,200,120,.15);stroke:#0a6;stroke-width:.4%;vector-effect:non-scaling-stroke}
    .corner{fill:#fff;stroke:#06c;stroke-width:3px;vector-effect:non-scaling-stroke;cursor:grab;touch-action:none}
    .corner:focus{fill:#fd0;outline:none}.corner.dragging{fill:#fd0;cursor:grabbing}
    .cropbox{margin:0}.cropbox img{max-width:320px;border:1px solid #ccc;display:block}
    .fields{margin-top:12px;display:grid;grid-template-columns:110px 1fr;gap:8px 12px;max-width:720px}
    .fields label{font-weight:600}.fields input{width:100%;padding:4px}
    .read{font-size:12px;color:#666}.read button{font-size:12px}
    .options{list-style:none;margin:2px 0 0;padding:0;border:1px solid #ccc;background:#fff}
    .options:empty{display:none}.options li{padding:3px 6px;cursor:pointer}.options li:hover,.options li:focus{background:#def}
    .swatch{width:28px;height:28px;border:1px solid #888;margin-right:6px;border-radius:4px;cursor:pointer}
    .swatch.chosen{outline:3px solid #36c}
    .chip{display:inline-block;background:#e4ecf7;border-radius:10px;padding:1px 8px;margin:0 4px 4px 0}
    .chip button,.notes button{border:none;background:none;cursor:pointer;color:#a00}
    .receipt{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
    .lines{font:12px/1.5 ui-monospace,monospace;max-height:480px;overflow:auto;background:#fff;border:1px solid #ddd;padding:4px 4px 4px 36px;margin:0}
    .lines li.source{background:#fd0}
    .page-view{position:relative;flex:none;width:320px;align-self:flex-start;border:1px solid #ccc}.page-view img{display:block;width:100%}.line-mark{position:absolute;border:2px solid #e60;background:rgba(255,210,0,.25);box-sizing:border-box;pointer-events:none}.line-mark[hidden]{display:none}
    .items input{width:6em;padding:2px}.items input[data-key=description]{width:14em}
    .remove-item{border:none;background:none;cursor:pointer;color:#a00}
    .error{color:#a00}table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}
    """
}
