"""The league's static site (``mighty site``): :mod:`.build` reads a league from the store
(with :mod:`.reads`, the site's own queries) and hands each page to :mod:`.pages`, which keys
it (:mod:`.manifest`), renders it in its frame (:mod:`.page_frames`) here or on the other
cores (:mod:`.workers`) and writes it; :mod:`.hand_page` is a refereed hand's page,
:mod:`.garbage` keeps the collector quiet during a build. The renderers it shares with the
command line are in :mod:`mighty_cli.render`."""
