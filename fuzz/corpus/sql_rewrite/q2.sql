SELECT count(*) FROM data, data_raw /* from data */ -- join data
 WHERE x = $tag$ from data $tag$