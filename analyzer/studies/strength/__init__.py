"""How strong play is made: the learned player trained by self-play (:mod:`.training`,
``bezique train``), its learning curve and its model written and, when asked, installed as the
package's player. Its strength measured against the others is the published studies'
(:mod:`analyzer.published`)."""
