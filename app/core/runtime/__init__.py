"""What the engine owns on the machine: what a kind declares to be run (:mod:`.definition`),
its child processes (:mod:`.children`), the rounds driver that runs jobs in fresh workers
(:mod:`.rounds`), its scratch folders (:mod:`.scratch`), how it ends on a signal
(:mod:`.termination`) and its safe writes (:mod:`.safe_files`, :mod:`.staging_names`)."""
