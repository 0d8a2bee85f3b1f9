calc --mem 8X
