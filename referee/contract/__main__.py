"""``python -m referee.contract [--check]``: regenerate (or check) openapi.yaml and schemas/."""
from referee.contract.files import main

raise SystemExit(main())
