from strategia.cli import main

raise SystemExit(main())
