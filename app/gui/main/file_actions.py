"""The main window's File menu: what Choose files…, Encrypt file…, Decrypt file…, Export
results…, Export for a paper…, Save encrypted…, Save plaintext… and Save chart… do.

:class:`FileActions` is the base of :class:`~app.gui.main.window.MainWindow` (a window class
of its own, not a plain mixin, so that its ``@Slot`` handlers stay the window's slots: PySide6
drops a plain mixin's from the metaobject once it adds a dynamic slot). The actions, buttons
and signals connect to the window's handlers as before. A save asks where (a file dialog
in the last folder used), refuses with a message a target that must not be written (a folder,
a device, a pipe, or a file being benchmarked), then hands the path to the controller or the
chart. Encrypt and Decrypt open one window-modal dialog at a time (``crypt_dialog``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QDialog, QFileDialog

from app.core.errors import UserError
from app.core.runtime.output_checks import check_output
from app.gui.describe import sentence
from app.gui.file_filters import CHART_FILTERS, RESULT_FILTERS, with_suffix
from app.gui.main.parts import WindowParts
from app.gui.paper_export import written_text

if TYPE_CHECKING:
    from app.core.bench.kept import FinishedJob
    from app.gui.dialogs.decrypt_dialog import DecryptDialog
    from app.gui.dialogs.encrypt_dialog import EncryptDialog
    from app.gui.paper_export import PaperExporter
    from app.gui.results.throttled_chart import ThrottledChart


class FileActions(WindowParts):
    """The File menu's handlers, for the main window (which sets ``paper_exporter`` and
    ``crypt_dialog``, None when no dialog is open, and has ``show_status``, ``show_error``
    and ``_selected_row``)."""

    if TYPE_CHECKING:
        paper_exporter: PaperExporter
        crypt_dialog: QDialog | None

        def show_status(self, text: str) -> None: ...  # the window's own

        def show_error(self, title: str, text: str) -> None: ...

        def _selected_row(self) -> int | None: ...  # the results table's selected row

    @Slot()
    def _on_open_action_triggered(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(
            self, "Choose the files to benchmark", self.settings.last_folder
        )
        if paths:
            self.controller.add_input_files(paths)

    # --- saving -----------------------------------------------------------------------------

    @Slot()
    def _on_export_action_triggered(self) -> None:
        run = self.controller.last_run
        if run is None or self.controller.running:
            return
        suggested = str(Path(self.settings.last_folder) / "cipherbench-results.xlsx")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Export results", suggested, ";;".join(RESULT_FILTERS)
        )
        path = with_suffix(path, chosen, RESULT_FILTERS)
        if path and not self._output_refused(path, "Export failed"):
            self.controller.export(path)

    @Slot()
    def _on_paper_action_triggered(self) -> None:
        run = self.controller.last_run
        if run is None or self.controller.running:
            return
        inputs = [spec.path for spec in self.controller.inputs]
        self.paper_exporter.ask_and_start(self, run, self.settings.last_folder, inputs)

    @Slot(object)
    def _on_paper_exporter_written(self, paths: list[Path]) -> None:
        if paths:
            self.settings.last_folder = str(paths[0].parent)
        self.show_status(written_text(paths))

    def _output_refused(self, path: str, title: str, *inputs: str) -> bool:
        """Whether ``path`` must not be written, said to the user: a folder, a device or a pipe
        (Qt would block on a pipe), or a file being worked on: ``inputs`` and the inputs."""
        sources = [*inputs, *(spec.path for spec in self.controller.inputs)]
        try:
            check_output(path, force=True, inputs=sources)
        except UserError as exc:
            self.show_error(title, sentence(str(exc)))
            return True
        return False

    def _ask_save_path(self, title: str, name: str) -> str:
        path, _ = QFileDialog.getSaveFileName(
            self, title, str(Path(self.settings.last_folder) / name)
        )
        return path

    @Slot()
    def _on_save_plaintext_action_triggered(self) -> None:
        row = self._selected_row()
        if row is None or not self.controller.has_secret(row):
            return
        r = self.controller.model.result(row)
        path = self._ask_save_path("Save decrypted plaintext", f"decrypted-{r.input_label}")
        job = self.controller.finished_job(row)
        benchmarked = [job.input.path] if job is not None else []
        if path and not self._output_refused(path, "Cannot save the plaintext", *benchmarked):
            self.controller.save_plaintext(row, path)

    @Slot()
    def _on_save_chart_action_triggered(self) -> None:
        self._save_chart(self.tabs.current_chart())

    @Slot(object)
    def _on_tabs_chart_save_requested(self, chart: ThrottledChart) -> None:
        self._save_chart(chart)

    def _save_chart(self, chart: ThrottledChart) -> None:
        chart.flush()
        if not chart.has_data:
            self.show_error(
                "Nothing to save",
                "This chart is empty: run a benchmark first (the Memory & CPU chart shows the "
                "running job, or the job selected in the table).",
            )
            return
        name = self.tabs.file_stem(chart)
        suggested = str(Path(self.settings.last_folder) / f"cipherbench-{name}.png")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Save chart", suggested, ";;".join(CHART_FILTERS)
        )
        if not path:
            return
        path = with_suffix(path, chosen, CHART_FILTERS)
        if self._output_refused(path, "Cannot save the chart"):
            return
        try:
            written = chart.save(path)
        except UserError as exc:
            self.show_error("Cannot save the chart", str(exc))
            return
        self.show_status(f"Saved the chart to {written}")

    # --- encrypt and decrypt dialogs --------------------------------------------------------

    @Slot()
    def _on_encrypt_file_action_triggered(self) -> None:
        self.open_encrypt_dialog()

    @Slot()
    def _on_decrypt_file_action_triggered(self) -> None:
        self.open_decrypt_dialog()

    @Slot()
    def _on_save_encrypted_action_triggered(self) -> None:
        row = self._selected_row()
        job = self.controller.finished_job(row) if row is not None else None
        if job is not None:
            self.open_encrypt_dialog(job)

    def open_encrypt_dialog(self, job: FinishedJob | None = None) -> EncryptDialog | None:
        """Show "Encrypt file…" (``job=None``) or "Save encrypted…" for ``job``; returns the
        dialog (window-modal, deleted when closed), or None during a run."""
        if self.controller.running or self.controller.busy:
            return None
        from app.gui.dialogs.encrypt_dialog import EncryptDialog

        dialog = EncryptDialog(self.settings, job, parent=self)
        spec = self.controller.input
        if job is None and spec is not None and not spec.generated:
            dialog.source_field.set_path(spec.path)  # the file the window works on
        dialog.encrypted.connect(self._on_crypt_dialog_encrypted)
        self._show_crypt_dialog(dialog)
        return dialog

    def open_decrypt_dialog(self) -> DecryptDialog | None:
        """Show "Decrypt file…"; returns the dialog, or None during a run."""
        if self.controller.running or self.controller.busy:
            return None
        from app.gui.dialogs.decrypt_dialog import DecryptDialog

        dialog = DecryptDialog(self.settings, parent=self)
        dialog.saved.connect(self._on_crypt_dialog_saved)
        self._show_crypt_dialog(dialog)
        return dialog

    def _show_crypt_dialog(self, dialog: QDialog) -> None:
        if self.crypt_dialog is not None:
            self.crypt_dialog.close()
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._on_crypt_dialog_finished)
        self.crypt_dialog = dialog
        dialog.open()

    @Slot(object)
    def _on_crypt_dialog_encrypted(self, outcome: Any) -> None:
        self.show_status(outcome.summary)

    @Slot(str)
    def _on_crypt_dialog_saved(self, path: str) -> None:
        self.show_status(f"Saved the decrypted file to {path}")

    @Slot()
    def _on_crypt_dialog_finished(self) -> None:
        if self.sender() is self.crypt_dialog:
            self.crypt_dialog = None
