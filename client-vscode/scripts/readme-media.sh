#!/usr/bin/env bash
# Makes the README's GIF (squiggle → lightbulb → quick-fix → probe) from the
# screenshots the editor suite leaves in test-artifacts/vscode/. Needs
# ImageMagick (apt-get install imagemagick); run after scripts/test.d/50-vscode.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
shots=test-artifacts/vscode
frames=()
for name in squiggle-and-problems lightbulb-menu quick-fix-applied probe-hints-and-view; do
  file=$(ls "$shots"/*-"$name".png | head -1)
  frames+=("$file")
done
convert -delay 220 -loop 0 "${frames[@]}" -resize 1000x -layers Optimize -colors 128 client-vscode/media/flow.gif
echo "client-vscode/media/flow.gif: $(du -h client-vscode/media/flow.gif | cut -f1)"
