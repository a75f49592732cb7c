"""Collections: folders of saved calls, one TOML file per call, run and checked through the gateway.

See docs/collections.md for the file format, references, environments and
how a dry-run of a whole collection works.
"""

from ._errors import CollectionError
from ._expect import Check, check_envelope, expectation_text, recorded_expectation
from ._junit import junit_xml
from ._load import call_name, find_collection, load_call, load_collection, load_env, shipped_collections
from ._model import COLLECTION_FILE, Collection, Expectation, SavedCall
from ._rehearsal import rehearsal_gateway
from ._run import DRY_RUN, REHEARSED, RUN, CallReport, RunReport, run_collection
from ._save import save_call, saved_call_text
from ._values import refers_to_earlier_calls

__all__ = [
    "COLLECTION_FILE",
    "DRY_RUN",
    "REHEARSED",
    "RUN",
    "CallReport",
    "Check",
    "Collection",
    "CollectionError",
    "Expectation",
    "RunReport",
    "SavedCall",
    "call_name",
    "check_envelope",
    "expectation_text",
    "find_collection",
    "junit_xml",
    "load_call",
    "load_collection",
    "load_env",
    "recorded_expectation",
    "refers_to_earlier_calls",
    "rehearsal_gateway",
    "run_collection",
    "save_call",
    "saved_call_text",
    "shipped_collections",
]
