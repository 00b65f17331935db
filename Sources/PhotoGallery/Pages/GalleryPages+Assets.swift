extension GalleryPages {
    /// `gallery.css`: the grid (2, 3, 4 or 5 columns by the window's
    /// width, 8-pixel padding and gaps: what ``tileSizes`` says), the
    /// photo page and the viewer. No web font: the system's.
    static let style = """
        *{box-sizing:border-box}
        html{color-scheme:dark}
        body{margin:0;background:#111;color:#eee;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        a{color:#9cf}
        header{padding:16px 8px 4px}
        h1{font-size:1.4em;margin:0 0 4px;overflow-wrap:anywhere}
        header p{margin:0 0 4px;color:#bbb;overflow-wrap:anywhere}
        .grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:8px;padding:8px;align-items:start}
        @media (min-width:600px){.grid{grid-template-columns:repeat(3,minmax(0,1fr))}}
        @media (min-width:900px){.grid{grid-template-columns:repeat(4,minmax(0,1fr))}}
        @media (min-width:1400px){.grid{grid-template-columns:repeat(5,minmax(0,1fr))}}
        .tile{display:block;background-size:100% 100%;border-radius:2px;overflow:hidden}
        .tile img{display:block;width:100%;height:auto;color:transparent}
        .tile:focus-visible{outline:2px solid #9cf;outline-offset:2px}
        .photo-page{display:flex;flex-direction:column;min-height:100vh}
        .bar{display:flex;justify-content:space-between;align-items:center;gap:12px;padding:8px 12px;min-height:44px}
        .bar .none{color:#555}
        .photo{margin:0;flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center}
        .frame{background-size:100% 100%;max-width:100%}
        .frame img{display:block;width:auto;height:auto;max-width:100%;max-height:calc(100vh - 104px)}
        figcaption{padding:4px 12px;color:#ccc;text-align:center;overflow-wrap:anywhere}
        .viewer{position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.94);display:flex;align-items:center;justify-content:center;touch-action:pan-y pinch-zoom}
        .viewer[hidden]{display:none}
        .viewer .stage{background-size:100% 100%}
        .viewer img{display:block;width:auto;height:auto;max-width:100vw;max-height:100vh}
        .viewer button{position:absolute;background:rgba(0,0,0,.5);color:#fff;border:0;font-size:32px;line-height:1;padding:12px 16px;cursor:pointer}
        .viewer .close{top:8px;right:8px}
        .viewer .prev{left:4px;top:50%;transform:translateY(-50%)}
        .viewer .next{right:4px;top:50%;transform:translateY(-50%)}
        .viewer .caption{position:absolute;bottom:0;left:0;right:0;margin:0;padding:8px 12px;text-align:center;background:rgba(0,0,0,.5)}
        .viewer .caption:empty{display:none}

        """

    /// `gallery.js`: on the index, a tile opens the in-page viewer (arrow
    /// keys, swipes and buttons move through the album in its order, Escape
    /// closes it, the address keeps the photo's id); on a photo's page, the
    /// arrow keys and swipes follow its previous and next links and Escape
    /// goes up to the index. Without it every link still works.
    static let script = """
        (function () {
          "use strict";
          var d = document;
          function swipe(element, moved) {
            var x0 = null, y0 = 0;
            element.addEventListener("touchstart", function (e) {
              if (e.touches.length === 1) { x0 = e.touches[0].clientX; y0 = e.touches[0].clientY; } else { x0 = null; }
            }, { passive: true });
            element.addEventListener("touchend", function (e) {
              if (x0 === null) return;
              var t = e.changedTouches[0], dx = t.clientX - x0, dy = t.clientY - y0;
              x0 = null;
              if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy) * 1.5) moved(dx < 0 ? 1 : -1);
            }, { passive: true });
          }
          function plainKey(e) { return !(e.altKey || e.ctrlKey || e.metaKey || e.shiftKey); }
          if (d.body.classList.contains("photo-page")) {
            var follow = function (rel) { var a = d.querySelector('a[rel="' + rel + '"]'); if (a) location.href = a.href; };
            d.addEventListener("keydown", function (e) {
              if (!plainKey(e)) return;
              if (e.key === "ArrowRight") follow("next");
              else if (e.key === "ArrowLeft") follow("prev");
              else if (e.key === "Escape") follow("up");
            });
            swipe(d.body, function (step) { follow(step > 0 ? "next" : "prev"); });
            return;
          }
          var tiles = Array.prototype.slice.call(d.querySelectorAll(".tile"));
          if (!tiles.length) return;
          var viewer = d.createElement("div");
          viewer.className = "viewer";
          viewer.hidden = true;
          viewer.setAttribute("role", "dialog");
          viewer.setAttribute("aria-modal", "true");
          viewer.innerHTML = '<div class="stage"></div><button class="prev" aria-label="Previous">\\u2039</button>' +
            '<button class="next" aria-label="Next">\\u203a</button><button class="close" aria-label="Close">\\u00d7</button><p class="caption"></p>';
          d.body.appendChild(viewer);
          var stage = viewer.querySelector(".stage"), caption = viewer.querySelector(".caption"), at = -1;
          function show(index) {
            if (index < 0 || index >= tiles.length) return;
            at = index;
            var tile = tiles[index], picture = tile.querySelector("picture").cloneNode(true);
            Array.prototype.forEach.call(picture.querySelectorAll("source, img"), function (node) {
              node.setAttribute("sizes", tile.getAttribute("data-large"));
              node.removeAttribute("loading");
            });
            stage.replaceChildren(picture);
            stage.style.backgroundImage = tile.style.backgroundImage;
            caption.textContent = tile.getAttribute("data-caption") || "";
            viewer.hidden = false;
            viewer.setAttribute("data-index", String(index));
            history.replaceState(null, "", "#" + tile.id);
          }
          function close() {
            viewer.hidden = true;
            stage.replaceChildren();
            if (at >= 0) tiles[at].focus();
            at = -1;
            history.replaceState(null, "", location.pathname);
          }
          tiles.forEach(function (tile, index) {
            tile.addEventListener("click", function (e) {
              if (e.button !== 0 || !plainKey(e)) return;
              e.preventDefault();
              show(index);
            });
          });
          viewer.querySelector(".close").addEventListener("click", close);
          viewer.querySelector(".prev").addEventListener("click", function () { show(at - 1); });
          viewer.querySelector(".next").addEventListener("click", function () { show(at + 1); });
          d.addEventListener("keydown", function (e) {
            if (viewer.hidden || !plainKey(e)) return;
            if (e.key === "ArrowRight") show(at + 1);
            else if (e.key === "ArrowLeft") show(at - 1);
            else if (e.key === "Escape") close();
          });
          swipe(viewer, function (step) { show(at + step); });
        })();

        """
}
