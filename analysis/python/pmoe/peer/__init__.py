"""The agreement of pmoe-sim with an independent PyTorch peer on pMoE (agreement)."""
