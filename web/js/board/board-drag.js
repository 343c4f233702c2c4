// Drag and drop on a board, shared by the play and puzzle pages: press on a piece
// that can move, drag it, drop it on a destination.  A drop is a click on the cell
// dropped on, and a press and release without moving is a click, so the page's own
// click handler (which knows the legal moves the server sent) does every move; this
// module only moves the piece under the pointer.
//
// attachDrag(host, hooks) with
//   svg()            the board's svg element now;
//   pick(cell)       a press on cell: select it as the piece to move when it may be
//                    (and draw that); true when the press made a new selection;
//   selected(cell)   cell is the selected piece, with no step taken yet;
//   click(cell)      the page's click on cell;
//   render()         draw the board again (a drag dropped where it started).
// It returns a function that detaches it (call it when the page goes).
export function attachDrag(host, hooks) {
  let drag = null;
  const cellAt = (x, y) => {
    const node = document.elementFromPoint(x, y);
    const g = node && node.closest && node.closest('[data-cell]');
    return g ? g.dataset.cell : null;
  };
  function down(e) {
    if (e.button !== 0) return;
    const cell = cellAt(e.clientX, e.clientY);
    if (!cell) return;
    drag = { cell, fresh: hooks.pick(cell), x: e.clientX, y: e.clientY, moved: false, ghost: null };
  }
  function move(e) {
    if (!drag || !hooks.selected(drag.cell)) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    drag.moved = true;
    const svg = hooks.svg();
    if (!svg) return;
    if (!drag.ghost) {
      const piece = svg.querySelector(`.piece[data-at="${CSS.escape(drag.cell)}"]`);
      if (!piece) return;
      drag.ghost = piece;
      piece.classList.add('dragging');
    }
    const ctm = svg.getScreenCTM();
    const dx = (e.clientX - drag.x) / ctm.a, dy = (e.clientY - drag.y) / ctm.d;
    drag.ghost.setAttribute('transform', `translate(${dx} ${dy})`);
  }
  function up(e) {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.ghost) d.ghost.style.display = 'none';
    const cell = cellAt(e.clientX, e.clientY);
    if (d.moved) {
      if (cell && cell !== d.cell) hooks.click(cell);
      else hooks.render();
    } else if (cell && !d.fresh) hooks.click(cell);
  }
  host.addEventListener('pointerdown', down);
  host.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  return () => window.removeEventListener('pointerup', up);
}
