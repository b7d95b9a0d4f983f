"""The one timing core: calls batched so that each sample lasts long enough to time
(:mod:`.batches`), and the cycle counter where the machine lets us read one (:mod:`.cycles`)."""
