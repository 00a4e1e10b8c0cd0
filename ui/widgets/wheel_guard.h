// The wheel turns an input only once the user gave it focus. Scrolling a panel with the pointer
// passing over a number box, a slider or a list box scrolls the panel; it does not change the
// input (a carveout that went from "default" to 9 % while scrolling cut shared memory from 228 KB
// to 32 KB without a word). CheckedSpinBox does this itself; guardWheel does it for the rest.
#pragma once

class QWidget;

namespace occx::ui {

/// Makes `input` take focus only by a click or Tab (Qt::StrongFocus, not by the wheel) and take the
/// wheel only with focus: without it, the wheel event goes on, ignored, to the widgets around it
/// (the scroll area). Installing it twice does nothing more.
void guardWheel(QWidget* input);

/// guardWheel for every spin box, slider (not scroll bars) and combo box under `root`, found now.
void guardWheelUnder(const QWidget* root);

}  // namespace occx::ui
