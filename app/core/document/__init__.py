"""What every kind of result hands to the renderers: a document of tables of typed cells
(:mod:`.model`), each cell's estimate computed once (:mod:`.estimate`) and printed by one
formatter per quantity (:mod:`.numbers`), and the renderers that know no kind (:mod:`.markdown`,
:mod:`.latex`)."""
