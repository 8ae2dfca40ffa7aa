extension ReviewPage {
  /// The page's behaviour: the queue and its search box, a record's photo with draggable
  /// corners (pointer events: mouse, pen and touch; arrow keys move the focused corner), and
  /// the fields, tags and notes. Every change is posted at once and the page shows the record
  /// the server answers with.
  static let script = #"""
    "use strict";
    const token = new URLSearchParams(location.search).get("token") || "";
    const SVG = "http://www.w3.org/2000/svg";
    const $ = (selector) => document.querySelector(selector);
    let current = null;
    let quad = null;
    let nudgeTimer = null;

    async function api(path, body) {
      const options = { headers: { "X-Review-Token": token } };
      if (body !== undefined) {
        options.method = "POST";
        options.headers["Content-Type"] = "application/json";
        options.body = JSON.stringify(body);
      }
      const response = await fetch(path, options);
      const data = await response.json();
      if (!response.ok) {
        const error = new Error(data.error || response.statusText);
        error.status = response.status;
        throw error;
      }
      return data;
    }
    const withToken = (url) => url + (url.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token);
    const query = (name, value) => name + "=" + encodeURIComponent(value);

    function el(tag, attributes, ...children) {
      const node = document.createElement(tag);
      for (const [key, value] of Object.entries(attributes || {})) {
        if (value === undefined || value === null) continue;
        if (key === "class") node.className = value; else node.setAttribute(key, value);
      }
      for (const child of children) if (child !== undefined && child !== null) node.append(child);
      return node;
    }
    function svgElement(tag, attributes) {
      const node = document.createElementNS(SVG, tag);
      for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
      return node;
    }
    function status(text, isError) {
      const line = $("#status");
      line.textContent = text;
      line.className = isError ? "error" : "";
    }
    function debounce(action, ms) {
      let timer = null;
      return (...args) => { clearTimeout(timer); timer = setTimeout(() => action(...args), ms); };
    }

    // The queue

    // A page of the queue at a time: a folder of thousands opens as fast as one of a hundred.
    const queuePage = Math.min(500, Number(new URLSearchParams(location.search).get("page")) || 100);
    let queueShown = 0;
    // `more`: true appends the next page; "keep" loads again as many as are shown (after an edit).
    async function loadQueue(more) {
      try {
        const offset = more === true ? queueShown : 0;
        const limit = more === "keep" ? Math.min(500, Math.max(queuePage, queueShown)) : queuePage;
        const data = await api("/api/queue?" + query("q", $("#search").value) + "&" + query("offset", offset) + "&" + query("limit", limit));
        const items = data.entries.map(queueItem);
        if (offset > 0) $("#queue").append(...items); else $("#queue").replaceChildren(...items);
        queueShown = offset + data.entries.length;
        $("#count").textContent = data.count + (data.count === 1 ? " record" : " records")
          + (queueShown < data.count ? ", the first " + queueShown + " shown" : "");
        $("#more").hidden = queueShown >= data.count;
        $("#more").textContent = "Show " + Math.min(queuePage, data.count - queueShown) + " more";
        document.body.dataset.queueLoads = String(Number(document.body.dataset.queueLoads || 0) + 1);
        // When the first page was on screen, for `make bench` (milliseconds since navigation).
        if (!document.body.dataset.queueMs) document.body.dataset.queueMs = String(Math.round(performance.now()));
      } catch (error) {
        status(error.message, true);
      }
    }
    function queueItem(entry) {
      const open = current && current.file === entry.file;
      const item = el("li", { class: open ? "open" : "", tabindex: "0", "data-file": entry.file },
        el("span", { class: "score", title: "how much it needs a look" }, String(entry.score)),
        el("span", { class: "title" }, entry.title || entry.file),
        el("span", { class: "meta" }, [entry.file, entry.kind, entry.issuer, entry.total, entry.date]
          .concat(entry.tags).filter(Boolean).join(" · ")),
        el("ul", { class: "reasons" }, ...entry.reasons.map((reason) => el("li", {}, "+" + reason.points + " " + reason.text))));
      item.addEventListener("click", () => openRecord(entry.file));
      item.addEventListener("keydown", (event) => { if (event.key === "Enter") openRecord(entry.file); });
      return item;
    }

    // One record

    async function openRecord(file) {
      try {
        show(await api("/api/record?" + query("file", file)));
        status("");
      } catch (error) {
        status(error.message, true);
      }
    }
    function show(detail) {
      current = detail;
      for (const item of document.querySelectorAll("#queue > li")) item.classList.toggle("open", item.dataset.file === detail.file);
      const record = detail.record;
      const parts = [el("h2", {}, detail.file)];
      if (detail.reasons.length) parts.push(el("ul", { class: "reasons" }, ...detail.reasons.map((r) => el("li", {}, "+" + r.points + " " + r.text))));
      if (record.error) parts.push(el("p", { class: "error" }, record.error.stage + ": " + record.error.message));
      // A receipt's record carries an empty card part; its corners are not a card's to drag.
      if (record.card && record.kind !== "receipt") parts.push(cardView(detail), cardFields(detail));
      if (record.receipt) parts.push(receiptView(detail));
      parts.push(labels(detail));
      $("#detail").replaceChildren(...parts);
    }

    function cardView(detail) {
      const image = detail.record.image;
      const card = detail.record.card;
      const frame = el("div", { class: "frame" });
      if (detail.photo) frame.append(el("img", { id: "photo", src: withToken(detail.photo), alt: "the photo" }));
      if (image) {
        const svg = svgElement("svg", { viewBox: "0 0 " + image.width + " " + image.height, preserveAspectRatio: "none" });
        const inset = Math.min(image.width, image.height) / 10;
        quad = (card.quad || [[inset, inset], [image.width - inset, inset], [image.width - inset, image.height - inset], [inset, image.height - inset]])
          .map((point) => [point[0], point[1]]);
        const polygon = svgElement("polygon", { class: "quad" });
        svg.append(polygon);
        const radius = Math.max(image.width, image.height) / 55;
        const corners = quad.map((_, index) => svgElement("circle", { class: "corner", r: radius, tabindex: "0", "data-corner": index, "aria-label": "corner " + (index + 1) }));
        const redraw = () => {
          polygon.setAttribute("points", quad.map((point) => point.join(",")).join(" "));
          corners.forEach((corner, index) => { corner.setAttribute("cx", quad[index][0]); corner.setAttribute("cy", quad[index][1]); });
        };
        corners.forEach((corner, index) => { svg.append(corner); dragCorner(svg, corner, index, redraw, image); });
        redraw();
        frame.append(svg);
        if (!detail.photo) frame.style.aspectRatio = image.width + " / " + image.height;
      }
      const crop = el("img", { id: "crop", alt: "the card as cut from the photo", src: detail.crop ? withToken(detail.crop) : undefined });
      return el("div", { class: "card" }, frame, el("figure", { class: "cropbox" }, crop, el("figcaption", {}, "crop")));
    }

    function dragCorner(svg, corner, index, redraw, image) {
      const clamp = (value, limit) => Math.min(Math.max(value, 0), limit);
      const move = (x, y) => { quad[index] = [clamp(x, image.width), clamp(y, image.height)]; redraw(); };
      corner.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        corner.setPointerCapture(event.pointerId);
        corner.classList.add("dragging");
        corner.focus();
      });
      corner.addEventListener("pointermove", (event) => {
        if (!corner.hasPointerCapture(event.pointerId)) return;
        const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
        move(point.x, point.y);
      });
      corner.addEventListener("pointerup", (event) => {
        if (!corner.hasPointerCapture(event.pointerId)) return;
        corner.releasePointerCapture(event.pointerId);
        corner.classList.remove("dragging");
        commitQuad();
      });
      corner.addEventListener("keydown", (event) => {
        const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
        if (!step) return;
        event.preventDefault();
        // One screen pixel per press (ten with Shift), whatever the photo's size.
        const scale = (image.width / svg.getBoundingClientRect().width) * (event.shiftKey ? 10 : 1);
        move(quad[index][0] + step[0] * scale, quad[index][1] + step[1] * scale);
        clearTimeout(nudgeTimer);
        nudgeTimer = setTimeout(commitQuad, 700);
      });
    }

    async function commitQuad() {
      const file = current.file;
      const started = performance.now();
      status("re-running " + file + " with the new corners…");
      try {
        const rounded = quad.map((point) => [Math.round(point[0] * 10) / 10, Math.round(point[1] * 10) / 10]);
        const detail = await api("/api/quad", { file: file, quad: rounded, version: current.version });
        show(detail);
        status("re-warped in " + Math.round(performance.now() - started) + " ms");
        document.body.dataset.rewarps = String(Number(document.body.dataset.rewarps || 0) + 1);
        loadQueue("keep");
      } catch (error) {
        status(error.message, true);
        openRecord(file);
      }
    }

    // Every write carries the version of the record the page shows; a record changed in another
    // tab meanwhile is refused (409) and shown again as it now is, so no edit is lost unseen.
    async function write(path, change, done) {
      const file = current.file;
      try {
        show(await api(path, Object.assign({ file: file, version: current.version }, change)));
        status(done);
        loadQueue("keep");
      } catch (error) {
        status(error.message, true);
        if (error.status === 409) { await openRecord(file); status(error.message, true); }
      }
    }
    const edit = (change) => write("/api/correct", change, "saved");
    const label = (change) => write("/api/labels", change, "saved");

    function fieldRow(title, input, detail, field) {
      const row = [el("label", { for: input.id }, title), el("div", {}, input)];
      const read = detail.pipeline ? detail.pipeline[field] : undefined;
      if (detail.corrected.includes(field)) {
        const undo = el("button", { type: "button" }, "use it");
        undo.addEventListener("click", () => edit({ clear: [field] }));
        row[1].append(el("div", { class: "read" }, "your value; the run read: " + (read || "nothing") + " ", undo));
      }
      return row;
    }

    function cardFields(detail) {
      const card = detail.record.card;
      const name = el("input", { id: "name", value: (card.name && card.name.suggested) || "" });
      name.addEventListener("change", () => edit({ name: name.value }));
      const issuer = el("input", { id: "issuer", autocomplete: "off", value: (card.issuer && (card.issuer.name || card.issuer.id)) || "" });
      const options = el("ul", { id: "issuer-options", class: "options" });
      issuer.addEventListener("input", debounce(async () => {
        const found = await api("/api/issuers?" + query("q", issuer.value));
        options.replaceChildren(...found.map((option) => {
          const item = el("li", { tabindex: "0", "data-id": option.id }, option.name + (option.countries.length ? " (" + option.countries.join(", ") + ")" : ""));
          const pick = () => edit({ issuer: option.id });
          item.addEventListener("click", pick);
          item.addEventListener("keydown", (event) => { if (event.key === "Enter") pick(); });
          return item;
        }));
      }, 150));
      const issuerBox = el("div", {}, issuer, options);
      issuerBox.id = "issuer-box";
      const swatches = el("div", { id: "colors" });
      for (const color of card.colors || []) {
        const swatch = el("button", { type: "button", class: "swatch" + (color.hex === card.header_color ? " chosen" : ""), title: color.hex, "data-hex": color.hex });
        swatch.style.background = color.hex;
        swatch.addEventListener("click", () => edit({ color: color.hex }));
        swatches.append(swatch);
      }
      const codes = (card.barcodes || []).map((code) => code.symbology + " " + code.value).join(", ") || "none read";
      const rows = [
        ...fieldRow("Name", name, detail, "name"),
        el("label", { for: "issuer" }, "Issuer"), issuerBox,
        el("label", {}, "Colour"), swatches,
        el("label", {}, "Barcodes"), el("div", { id: "barcodes" }, codes),
      ];
      if (detail.corrected.includes("issuer")) rows.splice(2, 2, ...fieldRow("Issuer", issuerBox, detail, "issuer"));
      if (detail.corrected.includes("quad")) rows.push(el("label", {}, "Corners"), el("div", { class: "read" }, "placed by you"));
      return el("div", { class: "fields" }, ...rows);
    }

    // A receipt: its fields editable beside its flattened page and the lines the run read; the line a
    // field was read from is marked while that field has the focus, and the checks are computed
    // again by the server as amounts are typed.
    function receiptView(detail) {
      const receipt = detail.record.receipt;
      const lines = el("ol", { id: "receipt-lines", class: "lines", start: "0" },
        ...(receipt.text || []).map((line) => el("li", {}, line.text)));
      const mark = el("div", { id: "line-mark", class: "line-mark", hidden: "" });
      const checks = el("div", { id: "checks" }, checksText(receipt.checks ? receipt.checks.problems : []));
      const inputs = {};
      const recheck = debounce(async () => {
        const params = ["subtotal", "tax", "total"].map((name) => query(name, inputs[name].value)).join("&");
        try {
          const result = await api("/api/checks?" + query("file", detail.file) + "&" + params);
          checks.replaceChildren(checksText(result.problems, result.items_sum));
        } catch (error) {
          checks.replaceChildren(el("span", { class: "error" }, error.message));
        }
      }, 200);
      const rows = [];
      for (const [field, title] of [["merchant", "Merchant"], ["date", "Date"], ["currency", "Currency"],
        ["subtotal", "Subtotal"], ["tax", "Tax"], ["total", "Total"]]) {
        const input = el("input", { id: "receipt-" + field, value: receipt[field] || "", "data-field": field });
        inputs[field] = input;
        input.addEventListener("change", () => edit({ [field]: input.value }));
        if (["subtotal", "tax", "total"].includes(field)) input.addEventListener("input", recheck);
        input.addEventListener("focus", () => markLine(lines, mark, receipt, receipt.fields && receipt.fields[field]));
        input.addEventListener("blur", () => markLine(lines, mark, receipt, null));
        rows.push(...fieldRow(title, input, detail, field));
      }
      rows.push(el("label", {}, "Checks"), checks);
      const items = itemsEditor(detail);
      const shown = detail.page || detail.photo;
      const photo = shown ? el("div", { class: "page-view" }, el("img", { id: "receipt-page",
        src: withToken(shown), alt: detail.page ? "the receipt, flattened" : "the photo" }), mark) : null;
      return el("div", { class: "receipt" }, el("div", {}, el("div", { class: "fields" }, ...rows), items), lines, photo);
    }
    // The items, editable: a row is saved once it has an amount (a new row waits for it), × removes
    // one, and the list the page holds is what is stored, so the checks follow it.
    function itemsEditor(detail) {
      const body = el("tbody", { id: "receipt-items" });
      const keys = ["description", "quantity", "unit_price", "amount"];
      const save = () => {
        const items = [];
        for (const tr of body.children) {
          const value = (key) => tr.querySelector("input[data-key='" + key + "']").value.trim();
          if (!value("amount")) continue;
          items.push({ description: value("description"), quantity: value("quantity") || null,
            unit_price: value("unit_price") || null, amount: value("amount") });
        }
        edit({ items: items });
      };
      const row = (item) => {
        const shown = (value) => (value === null || value === undefined ? "" : String(value));
        const tr = el("tr", {}, ...keys.map((key) => el("td", {},
          el("input", { "data-key": key, value: shown(item[key]), "aria-label": key.replace("_", " ") }))));
        const remove = el("button", { type: "button", class: "remove-item", title: "remove this item" }, "×");
        remove.addEventListener("click", () => { tr.remove(); save(); });
        tr.append(el("td", {}, remove));
        for (const input of tr.querySelectorAll("input")) {
          input.addEventListener("change", () => { if (tr.querySelector("input[data-key='amount']").value.trim()) save(); });
        }
        return tr;
      };
      body.append(...(detail.record.receipt.items || []).map(row));
      const add = el("button", { type: "button", id: "add-item" }, "Add an item");
      add.addEventListener("click", () => { const tr = row({}); body.append(tr); tr.querySelector("input").focus(); });
      const head = el("thead", {}, el("tr", {}, ...["item", "qty", "unit price", "amount", ""].map((title) => el("th", {}, title))));
      const mine = detail.corrected.includes("items") ? el("p", { class: "read" }, "items listed by you") : null;
      return el("div", { class: "items" }, el("table", {}, head, body), add, mine);
    }
    function checksText(problems, itemsSum) {
      const text = problems.length ? problems.join("; ") : "the amounts add up" + (itemsSum ? " (items " + itemsSum + ")" : "");
      return el("span", { class: problems.length ? "error" : "" }, text);
    }
    // The field's source line is marked in the list and, where the page shown is the one the
    // lines were read on (text_page), as a box over the page, placed in shares of its size.
    function markLine(lines, mark, receipt, field) {
      for (const item of lines.children) item.classList.remove("source");
      mark.hidden = true;
      if (!field || field.line === undefined || field.line === null) return;
      const item = lines.children[field.line];
      if (item) { item.classList.add("source"); item.scrollIntoView({ block: "nearest" }); }
      const line = (receipt.text || [])[field.line], page = receipt.text_page;
      if (!line || !page || !line.box) return;
      const [x, y, width, height] = line.box;
      const share = (value, total) => (100 * value / total).toFixed(2) + "%";
      Object.assign(mark.style, { left: share(x, page.width), top: share(y, page.height),
        width: share(width, page.width), height: share(height, page.height) });
      mark.hidden = false;
    }

    function labels(detail) {
      const chips = detail.tags.map((tag) => {
        const remove = el("button", { type: "button", "aria-label": "remove tag " + tag }, "×");
        remove.addEventListener("click", () => label({ remove_tags: [tag] }));
        return el("span", { class: "chip" }, tag, remove);
      });
      const addTag = el("input", { id: "add-tag", placeholder: "add a tag", list: "known-tags" });
      addTag.addEventListener("keydown", (event) => { if (event.key === "Enter" && addTag.value.trim()) label({ add_tags: [addTag.value.trim()] }); });
      const known = el("datalist", { id: "known-tags" }, ...detail.known_tags.map((tag) => el("option", { value: tag })));
      const notes = el("ol", { class: "notes" }, ...detail.notes.map((note, index) => {
        const remove = el("button", { type: "button", "aria-label": "remove note " + (index + 1) }, "×");
        remove.addEventListener("click", () => label({ remove_note: index + 1 }));
        return el("li", {}, note, remove);
      }));
      const addNote = el("input", { id: "add-note", placeholder: "add a note" });
      addNote.addEventListener("keydown", (event) => { if (event.key === "Enter" && addNote.value.trim()) label({ add_note: addNote.value.trim() }); });
      return el("div", { class: "fields" }, el("label", {}, "Tags"), el("div", { id: "tags" }, ...chips, addTag, known),
        el("label", {}, "Notes"), el("div", {}, notes, addNote));
    }

    $("#find").addEventListener("submit", (event) => { event.preventDefault(); loadQueue(); });
    $("#search").addEventListener("input", debounce(loadQueue, 250));
    $("#more").addEventListener("click", () => loadQueue(true));
    loadQueue();
    // `#file=NAME` in the URL opens that record: a link to one record of the run.
    if (location.hash.startsWith("#file=")) openRecord(decodeURIComponent(location.hash.slice(6)));
    """#
}
