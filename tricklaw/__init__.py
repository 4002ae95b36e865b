"""tricklaw: the rules lawyer for trick-taking card games.

Subpackages: :mod:`tricklaw.model` (the executable reference model),
:mod:`tricklaw.spec` (the clause registries), :mod:`tricklaw.proofs`
(checks and proofs), and the command line in :mod:`tricklaw.cli`.
"""

__version__ = "0.1.0"
