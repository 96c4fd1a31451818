"""Issue 32's smaller window defects, each checked against what the window did before."""

from __future__ import annotations


def test_a_refused_sideways_drag_leaves_the_hand_where_it_stood(fresh, table_i):
    """A press on the table puts the hand at the nearest wall, level with it; a drag from there
    along the wall is refused — and the hand went 7 cm along with it all the same."""
    from render.intents import ThrowIntent
    from render.snapshot import InputMode, Snapshot

    win = fresh
    win.show(Snapshot(table_i, input=InputMode.THROW, thrower="blue"))
    win.aim.side, win.aim.along = "S", 0.0
    win.camera.goal_yaw = None
    w, h = win.get_framebuffer_size()
    box = table_i.box
    y_out = -(box.inner_size[1] / 2 + box.wall_thickness + 0.04)
    x, y, _ = win.camera.project((0.07, y_out, box.floor_z), w, h)
    px, py = x * win.width / w, y * win.height / h
    clock = win.fake_clock
    win.on_mouse_press(px, py, 1, 0)
    assert win.aim.along > 0.05  # the press stood the hand level with it ...
    for k in range(1, 6):
        clock.t += 0.016
        win.on_mouse_drag(px + 25 * k, py, 25, 0, 1, 0)
    win.on_mouse_release(px + 125, py, 1, 0)
    assert not [i for i in win.intents if isinstance(i, ThrowIntent)] and "no throw" in win.hint
    assert (win.aim.side, win.aim.along) == ("S", 0.0)  # ... and the refused drag put it back
    win.on_mouse_press(px, py, 1, 0)  # a click (no drag) still only places the hand
    win.on_mouse_release(px, py, 1, 0)
    assert win.aim.side == "S" and win.aim.along > 0.05
