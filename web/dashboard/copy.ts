/**
 * Turns every "Copy" button on (they are hidden without script, where the text is selected by
 * hand) and copies its `data-copy` value to the clipboard.
 */
document.addEventListener('DOMContentLoaded', () => {
  if (!(navigator.clipboard as Clipboard | undefined)) {
    return;
  }
  document.querySelectorAll<HTMLButtonElement>('button[data-copy]').forEach((button) => {
    button.hidden = false;
    button.addEventListener('click', () => {
      const label = button.firstChild;
      navigator.clipboard.writeText(button.getAttribute('data-copy') ?? '').then(
        () => {
          if (label) {
            label.textContent = 'Copied';
          }
        },
        () => {
          if (label) {
            label.textContent = 'Copy failed';
          }
        },
      );
    });
  });
});
