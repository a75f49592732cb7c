"""The sets tuning scripts may choose by: the tuning parts of our labelled sets, MetaTool dev and its long requests.

``held=True`` gives the held-back parts instead (read once, to confirm a
choice, never to make one). The MetaTool held-out split and ToolLens are
never among them.
"""

from __future__ import annotations

from _search_data import QuerySet, metatool_dev, metatool_dev_long, metatool_dev_multi, metatool_dev_neighbours, metatool_dev_scenes, metatool_dev_situations, metatool_dev_stories, own_multi_sets, own_sets

# Column heads of a one-line summary, in the order tuning_sets() gives the sets.
SHORT_NAMES = ("own", "multi", "dev", "long", "devmulti", "stories", "situations", "neighbours", "scenes")


def tuning_sets(held: bool = False) -> list[QuerySet]:
    def part(sets: list[QuerySet]) -> list[QuerySet]:
        return [s for s in sets if ("held" in s.name) == held]

    whole = [] if held else [metatool_dev(), metatool_dev_long()]
    return part(own_sets()) + part(own_multi_sets()) + whole + part(metatool_dev_multi()) + part(metatool_dev_stories()) + part(metatool_dev_situations()) + part(metatool_dev_neighbours()) + part(metatool_dev_scenes())
